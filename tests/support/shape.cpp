#include "shape.h"

#include <sstream>

namespace scatter_test {

int64_t element_count(const Shape& shape) {
    int64_t count = 1;
    for (int64_t extent : shape) count *= extent;
    return count;
}

int64_t linear_position(const Shape& shape, const int64_t* coords) {
    int64_t position = 0;
    for (size_t d = 0; d < shape.size(); ++d) position = position * shape[d] + coords[d];
    return position;
}

std::string describe_shape(const Shape& shape) {
    std::ostringstream s;
    s << "{";
    for (size_t i = 0; i < shape.size(); ++i) s << (i ? "," : "") << shape[i];
    s << "}";
    return s.str();
}

}  // namespace scatter_test
