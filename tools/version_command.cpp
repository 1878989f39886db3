// `scatter version`: the version of the loaded library.
#include "commands.h"

#include <cstdio>

int version_command() {
    std::printf("%s\n", scatter_version_string());
    return 0;
}
