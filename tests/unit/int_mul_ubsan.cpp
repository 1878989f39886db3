// Built and run by clang with -fsanitize=undefined (ctest unit.int_mul_ubsan): 8- and 16-bit
// operands promote to int, where 65535 * 65535 overflows. GCC narrows that product back to 16
// bits before its sanitizer sees it, so only clang catches a regression here.
#include "cpu/element_arith.h"

#include <cstdio>

int main() {
    volatile uint16_t a = 65535, b = 65535;
    volatile int16_t c = 32767, d = -32768;
    volatile uint8_t e = 255, f = 255;
    const uint16_t ab = scatter::IntTraits<uint16_t>::mul(a, b);
    const int16_t cd = scatter::IntTraits<int16_t>::mul(c, d);
    const uint8_t ef = scatter::IntTraits<uint8_t>::mul(e, f);
    if (ab != 1 || cd != -32768 || ef != 1) {
        std::printf("wrong products: %u %d %u\n", unsigned(ab), int(cd), unsigned(ef));
        return 1;
    }
    return 0;
}
