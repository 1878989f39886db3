// Writing a result file all at once or not at all.
#ifndef SCATTER_TOOLS_OUTPUT_FILE_H
#define SCATTER_TOOLS_OUTPUT_FILE_H

#include <cstddef>
#include <string>
#include <vector>

struct FilePart {
    const void* bytes;
    size_t size;
};

// Writes the parts, in order, to a temporary file in the directory of `path` and renames it to
// `path`. On any failure the temporary file is removed, `path` is untouched (not created, or left
// as it was), and a CliError with SCATTER_ERROR_INVALID_ARGUMENT names the problem.
void write_file_atomically(const std::string& path, const std::vector<FilePart>& parts);

#endif  // SCATTER_TOOLS_OUTPUT_FILE_H
