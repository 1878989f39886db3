#include "output_file.h"

#include "cli_error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
    throw CliError(SCATTER_ERROR_INVALID_ARGUMENT,
                   "cannot " + what + " '" + path + "': " + std::strerror(errno));
}

std::string directory_of(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool write_all(int fd, const FilePart& part) {
    const char* bytes = static_cast<const char*>(part.bytes);
    size_t left = part.size;
    while (left > 0) {
        const ssize_t written = ::write(fd, bytes, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        bytes += written;
        left -= static_cast<size_t>(written);
    }
    return true;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::vector<FilePart>& parts) {
    struct stat existing;
    if (::stat(path.c_str(), &existing) == 0 && S_ISDIR(existing.st_mode)) {
        errno = EISDIR;
        fail("write", path);
    }
    std::string temporary = directory_of(path) + "/.scatter-out-XXXXXX";
    const int fd = ::mkstemp(&temporary[0]);
    if (fd < 0) fail("create a file beside", path);

    // mkstemp makes the file private; give it the permissions a plain create would.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    bool ok = ::fchmod(fd, 0666 & ~mask) == 0;
    for (const FilePart& part : parts) ok = ok && write_all(fd, part);
    const int saved_errno = errno;
    ok = (::close(fd) == 0) && ok;
    if (ok && ::rename(temporary.c_str(), path.c_str()) == 0) return;
    const int error = ok ? errno : saved_errno;
    ::unlink(temporary.c_str());
    errno = error;
    fail("write", path);
}
