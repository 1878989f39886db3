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

// Follows `path` through symbolic links (as open() would) to the name the data should end up
// under: renaming over a link would replace the link instead of writing where it points.
std::string resolve_links(const std::string& path) {
    std::string current = path;
    for (int hops = 0; hops < 40; ++hops) {  // 40: the kernel's own limit (ELOOP)
        struct stat link;
        if (::lstat(current.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return current;
        std::string target(size_t(link.st_size > 0 ? link.st_size : 255) + 1, '\0');
        const ssize_t length = ::readlink(current.c_str(), &target[0], target.size());
        if (length < 0) fail("read the link", current);
        target.resize(size_t(length));
        current = target[0] == '/' ? target : directory_of(current) + "/" + target;
    }
    errno = ELOOP;
    fail("write", path);
}

// A device, FIFO or socket cannot be replaced by rename (that would swap the node for a plain
// file); it is opened and written in place, which is what the user of such a path expects.
void write_through(const std::string& path, const std::vector<FilePart>& parts) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail("open", path);
    bool ok = true;
    for (const FilePart& part : parts) ok = ok && write_all(fd, part);
    const int saved_errno = errno;
    ok = (::close(fd) == 0) && ok;
    if (ok) return;
    errno = saved_errno;
    fail("write", path);
}

}  // namespace

void write_file_atomically(const std::string& requested_path, const std::vector<FilePart>& parts) {
    const std::string path = resolve_links(requested_path);
    struct stat existing;
    const bool exists = ::stat(path.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode)) {
        errno = EISDIR;
        fail("write", requested_path);
    }
    if (exists && !S_ISREG(existing.st_mode)) return write_through(path, parts);

    std::string temporary = directory_of(path) + "/.scatter-out-XXXXXX";
    const int fd = ::mkstemp(&temporary[0]);
    if (fd < 0) fail("create a file beside", path);

    // mkstemp makes the file private: give it the existing file's permissions (and, where
    // allowed, owner), or those a plain create would.
    bool ok;
    if (exists) {
        ok = ::fchmod(fd, existing.st_mode & 07777) == 0;
        if (::fchown(fd, existing.st_uid, existing.st_gid) != 0) {
            // Only a privileged caller may give a file away; others keep their own ownership.
        }
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ok = ::fchmod(fd, 0666 & ~mask) == 0;
    }
    for (const FilePart& part : parts) ok = ok && write_all(fd, part);
    const int saved_errno = errno;
    ok = (::close(fd) == 0) && ok;
    if (ok && ::rename(temporary.c_str(), path.c_str()) == 0) return;
    const int error = ok ? errno : saved_errno;
    ::unlink(temporary.c_str());
    errno = error;
    fail("write", path);
}
