// Writing a result file all at once or not at all.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

struct FilePart {
    const void* bytes;
    size_t size;
};

// Writes the parts, in order, to `path`, following symbolic links to the file they name.
// A regular file (or a new one) is written atomically: to a temporary file in the same directory,
// given the existing file's mode (and owner, where permitted) or a plain create's, then renamed
// over it. On any failure the temporary file is removed and the file is untouched (not created,
// or left as it was). An existing non-regular file (a device, FIFO or socket) is opened and
// written in place, which cannot be atomic. Failures throw a CliError with
// SCATTER_ERROR_INVALID_ARGUMENT naming the problem.
void write_file_atomically(const std::string& path, const std::vector<FilePart>& parts);
