/*
 * scatter.hpp — an optional, header-only C++17 layer over scatter.h.
 *
 * Nothing here is in the library: it is inline code over the C functions, so the C ABI stays the
 * only binary interface. It adds
 *   - RAII owners: scatter::context and scatter::buffer (movable, not copyable);
 *   - scatter::tensor_view: a tensor from a pointer and a shape (an initializer list or any
 *     pointer + rank), optional strides, or from std::span under C++20 (the span's size is
 *     checked against the shape), or from a buffer + byte offset;
 *   - two ways to get errors: the plain calls (ctx.elements(...)) throw scatter::error; the
 *     try_ calls (ctx.try_elements(...)) return scatter::result<T>, an expected-style value
 *     (has_value(), value(), error(), value_or()). Built without exceptions (-fno-exceptions),
 *     only the try_ calls and the noexcept factories (context::create, buffer::create) exist.
 *
 *   #include <scatter/scatter.hpp>
 *   scatter::context ctx(SCATTER_BACKEND_CPU);
 *   std::vector<float> data(4, 0.0f), updates = {1, 1, 1};
 *   std::vector<int64_t> indices = {1, 1, 3};
 *   scatter::options add;
 *   add.reduction = SCATTER_REDUCTION_ADD;
 *   scatter::tensor_view d(data.data(), {4});
 *   ctx.elements(d, scatter::tensor_view(indices.data(), {3}),
 *                scatter::tensor_view(updates.data(), {3}), d, add);   // in place: 0 2 0 1
 *   std::vector<float> picked(2);
 *   std::vector<int64_t> rows = {3, 1};
 *   ctx.gather_rows(d, scatter::tensor_view(rows.data(), {2}),
 *                   scatter::tensor_view(picked.data(), {2}));          // 1 2
 *
 * Threading and ownership are those of the C functions (scatter.h): a context may be used from
 * several threads at once; a tensor_view owns nothing and the memory it names must outlive the
 * call; a buffer must be destroyed before its context.
 */
#ifndef SCATTER_SCATTER_HPP
#define SCATTER_SCATTER_HPP

#include "scatter.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if __cplusplus >= 202002L || (defined(_MSVC_LANG) && _MSVC_LANG >= 202002L)
#if defined(__has_include)
#if __has_include(<span>)
#include <span>
#endif
#endif
#endif
#if defined(__cpp_lib_span) && __cpp_lib_span >= 202002L
#define SCATTER_HPP_HAS_SPAN 1
#else
#define SCATTER_HPP_HAS_SPAN 0
#endif

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define SCATTER_HPP_EXCEPTIONS 1
#include <stdexcept>
#else
#define SCATTER_HPP_EXCEPTIONS 0
#endif

namespace scatter {

/* ---- errors ---------------------------------------------------------------------------- */

/** A failed call: its status and the one-sentence message scatter_last_error_message() gave. */
struct error_info {
    scatter_status status = SCATTER_OK;
    std::string message;
    /** "SCATTER_ERROR_INDEX_OUT_OF_RANGE" etc. */
    const char* name() const noexcept { return scatter_status_name(status); }
    /** "SCATTER_ERROR_...: message" */
    std::string what() const { return std::string(name()) + ": " + message; }
};

namespace detail {
inline error_info last_error(scatter_status status) {
    return error_info{status, scatter_last_error_message()};
}
}  // namespace detail

#if SCATTER_HPP_EXCEPTIONS
/** Thrown by the calls without the try_ prefix. what() is "SCATTER_ERROR_...: message". */
class error : public std::runtime_error {
public:
    explicit error(error_info info) : std::runtime_error(info.what()), info_(std::move(info)) {}
    scatter_status status() const noexcept { return info_.status; }
    const std::string& message() const noexcept { return info_.message; }
    const error_info& info() const noexcept { return info_; }

private:
    error_info info_;
};
#endif

namespace detail {
[[noreturn]] inline void raise(const error_info& info) {
#if SCATTER_HPP_EXCEPTIONS
    throw error(info);
#else
    (void)info;
    std::abort();  // value() of a failed result without exceptions: check has_value() first
#endif
}
}  // namespace detail

/** Either a T or an error_info, like std::expected<T, error_info>. value() on an error throws
 *  scatter::error (aborts when built without exceptions). */
template <class T>
class [[nodiscard]] result {
public:
    result(T value) : value_(std::move(value)) {}
    result(error_info e) : error_(std::move(e)) {}

    bool has_value() const noexcept { return value_.has_value(); }
    explicit operator bool() const noexcept { return has_value(); }
    T& value() & {
        if (!value_) detail::raise(error_);
        return *value_;
    }
    const T& value() const& {
        if (!value_) detail::raise(error_);
        return *value_;
    }
    T&& value() && {
        if (!value_) detail::raise(error_);
        return std::move(*value_);
    }
    T& operator*() & { return *value_; }
    const T& operator*() const& { return *value_; }
    T* operator->() { return &*value_; }
    const T* operator->() const { return &*value_; }
    template <class U>
    T value_or(U&& fallback) const& {
        return value_ ? *value_ : static_cast<T>(std::forward<U>(fallback));
    }
    /** The error; meaningful only when !has_value(). */
    const error_info& error() const noexcept { return error_; }

private:
    std::optional<T> value_;
    error_info error_;
};

/** The result of a call that returns nothing. */
template <>
class [[nodiscard]] result<void> {
public:
    result() = default;
    result(error_info e) : error_(std::move(e)), failed_(true) {}

    bool has_value() const noexcept { return !failed_; }
    explicit operator bool() const noexcept { return has_value(); }
    void value() const {
        if (failed_) detail::raise(error_);
    }
    const error_info& error() const noexcept { return error_; }

private:
    error_info error_;
    bool failed_ = false;
};

namespace detail {
inline result<void> to_result(scatter_status status) {
    if (status == SCATTER_OK) return result<void>();
    return result<void>(last_error(status));
}
}  // namespace detail

/* ---- dtypes ---------------------------------------------------------------------------- */

/** 16-bit floats as their bits (the library reads and writes them; C++17 has no such type). */
struct f16 {
    uint16_t bits;
};
struct bf16 {
    uint16_t bits;
};

/** dtype_of<T>::value: the scatter_dtype of a C++ element type. */
template <class T>
struct dtype_of;
#define SCATTER_HPP_DTYPE_(type, dtype) \
    template <>                         \
    struct dtype_of<type> {             \
        static constexpr scatter_dtype value = dtype; \
    };
SCATTER_HPP_DTYPE_(f16, SCATTER_DTYPE_F16)
SCATTER_HPP_DTYPE_(bf16, SCATTER_DTYPE_BF16)
SCATTER_HPP_DTYPE_(float, SCATTER_DTYPE_F32)
SCATTER_HPP_DTYPE_(double, SCATTER_DTYPE_F64)
SCATTER_HPP_DTYPE_(int8_t, SCATTER_DTYPE_I8)
SCATTER_HPP_DTYPE_(int16_t, SCATTER_DTYPE_I16)
SCATTER_HPP_DTYPE_(int32_t, SCATTER_DTYPE_I32)
SCATTER_HPP_DTYPE_(int64_t, SCATTER_DTYPE_I64)
SCATTER_HPP_DTYPE_(uint8_t, SCATTER_DTYPE_U8)
SCATTER_HPP_DTYPE_(uint16_t, SCATTER_DTYPE_U16)
SCATTER_HPP_DTYPE_(uint32_t, SCATTER_DTYPE_U32)
SCATTER_HPP_DTYPE_(uint64_t, SCATTER_DTYPE_U64)
SCATTER_HPP_DTYPE_(bool, SCATTER_DTYPE_BOOL)
SCATTER_HPP_DTYPE_(std::complex<float>, SCATTER_DTYPE_C64)
SCATTER_HPP_DTYPE_(std::complex<double>, SCATTER_DTYPE_C128)
#undef SCATTER_HPP_DTYPE_

class buffer;

/* ---- tensors --------------------------------------------------------------------------- */

/** A view of caller memory or of a buffer, with its shape and strides copied in (the lists it
 *  was made from may go away). It owns no elements. Ranks above SCATTER_MAX_RANK are passed on
 *  as they are, and the library refuses them (SHAPE_MISMATCH). */
class tensor_view {
public:
    tensor_view() { point_at_own_arrays(); }
    tensor_view(const tensor_view& other) { *this = other; }
    tensor_view& operator=(const tensor_view& other) {
        tensor_ = other.tensor_;
        for (int d = 0; d < SCATTER_MAX_RANK; ++d) {
            shape_[d] = other.shape_[d];
            strides_[d] = other.strides_[d];
        }
        has_strides_ = other.has_strides_;
        span_elements_ = other.span_elements_;
        point_at_own_arrays();
        return *this;
    }

    /** Host memory of a known element type; strides in elements, empty for row-major. */
    template <class T>
    tensor_view(T* data, std::initializer_list<int64_t> shape, std::initializer_list<int64_t> strides = {})
        : tensor_view(data, shape.begin(), uint32_t(shape.size()),
                      strides.size() ? strides.begin() : nullptr) {}
    template <class T>
    tensor_view(T* data, const int64_t* shape, uint32_t rank, const int64_t* strides = nullptr) {
        init(dtype_of<std::remove_cv_t<T>>::value, 0, shape, rank, strides);
        tensor_.data = const_cast<void*>(static_cast<const void*>(data));
    }
    template <class T>
    tensor_view(T* data, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides = {})
        : tensor_view(data, shape.data(), uint32_t(shape.size()), strides.empty() ? nullptr : strides.data()) {}

    /** Host memory of a dtype given at run time (OPAQUE needs element_size, the others take 0). */
    tensor_view(void* data, scatter_dtype dtype, uint32_t element_size, const int64_t* shape, uint32_t rank,
                const int64_t* strides = nullptr) {
        init(dtype, element_size, shape, rank, strides);
        tensor_.data = data;
    }

#if SCATTER_HPP_HAS_SPAN
    /** A span and a shape; the call fails with INVALID_ARGUMENT when the shape and strides reach
     *  past the span's end. */
    template <class T, std::size_t N>
    tensor_view(std::span<T, N> data, std::initializer_list<int64_t> shape,
                std::initializer_list<int64_t> strides = {})
        : tensor_view(data.data(), shape, strides) {
        span_elements_ = int64_t(data.size());
    }
    /** A 1-D tensor of the whole span. */
    template <class T, std::size_t N>
    explicit tensor_view(std::span<T, N> data) : tensor_view(data, {int64_t(data.size())}) {}
#endif

    /** A tensor in a buffer at byte_offset. */
    template <class T>
    static tensor_view in_buffer(const buffer& b, std::initializer_list<int64_t> shape, uint64_t byte_offset = 0,
                                 std::initializer_list<int64_t> strides = {});
    static tensor_view in_buffer(const buffer& b, scatter_dtype dtype, uint32_t element_size, const int64_t* shape,
                                 uint32_t rank, uint64_t byte_offset = 0, const int64_t* strides = nullptr);

    /** The C descriptor, valid while this view lives and is not changed. */
    const scatter_tensor* get() const noexcept { return &tensor_; }
    uint32_t rank() const noexcept { return tensor_.rank; }
    scatter_dtype dtype() const noexcept { return tensor_.dtype; }
    int64_t shape(uint32_t d) const noexcept { return d < SCATTER_MAX_RANK ? shape_[d] : 0; }

    /** INVALID_ARGUMENT when a span-backed view reaches past its span, else success. */
    result<void> check_extent(const char* name) const {
        if (span_elements_ < 0 || tensor_.rank > SCATTER_MAX_RANK) return result<void>();
        int64_t end = 1;  // one past the furthest element, in elements
        for (uint32_t d = 0; d < tensor_.rank; ++d) {
            if (shape_[d] == 0) return result<void>();
            const int64_t stride = has_strides_ ? strides_[d] : 0;
            if (stride < 0) return result<void>();  // the library checks negative strides itself
            end += (shape_[d] - 1) * (has_strides_ ? stride : row_major_stride(d));
        }
        if (end <= span_elements_) return result<void>();
        return result<void>(error_info{SCATTER_ERROR_INVALID_ARGUMENT,
                                       std::string(name) + " reaches element " + std::to_string(end - 1) +
                                           " of a span of " + std::to_string(span_elements_) + " elements"});
    }

private:
    void init(scatter_dtype dtype, uint32_t element_size, const int64_t* shape, uint32_t rank,
              const int64_t* strides) {
        tensor_.dtype = dtype;
        tensor_.element_size = element_size;
        tensor_.rank = rank;
        for (uint32_t d = 0; d < rank && d < SCATTER_MAX_RANK; ++d) {
            shape_[d] = shape[d];
            if (strides != nullptr) strides_[d] = strides[d];
        }
        has_strides_ = strides != nullptr;
        point_at_own_arrays();
    }
    void point_at_own_arrays() {
        tensor_.shape = shape_;
        tensor_.strides = has_strides_ ? strides_ : nullptr;
    }
    int64_t row_major_stride(uint32_t d) const {
        int64_t s = 1;
        for (uint32_t k = d + 1; k < tensor_.rank; ++k) s *= shape_[k];
        return s;
    }

    scatter_tensor tensor_ = SCATTER_TENSOR_INIT;
    int64_t shape_[SCATTER_MAX_RANK] = {};
    int64_t strides_[SCATTER_MAX_RANK] = {};
    bool has_strides_ = false;
    int64_t span_elements_ = -1;  // >= 0 for views made from a span
};

/** Options of one operation; the defaults are SCATTER_OPTIONS_INIT's (axis 0, none, error). */
struct options {
    int32_t axis = 0;
    scatter_reduction reduction = SCATTER_REDUCTION_NONE;
    scatter_out_of_range out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    bool exclude_self = false;
    bool allow_nondeterminism = false;

    scatter_options get() const noexcept {
        scatter_options o = SCATTER_OPTIONS_INIT;
        o.axis = axis;
        o.reduction = reduction;
        o.out_of_range = out_of_range;
        o.flags = (exclude_self ? SCATTER_OPTION_EXCLUDE_SELF : 0u) |
                  (allow_nondeterminism ? SCATTER_OPTION_ALLOW_NONDETERMINISM : 0u);
        return o;
    }
};

/** Options of one gather; the defaults are SCATTER_GATHER_OPTIONS_INIT's (axis 0, batch_dims 0,
 *  error, zero fill). fill_value points at one element of data's dtype (FILL only). */
struct gather_options {
    int32_t axis = 0;
    uint32_t batch_dims = 0;
    scatter_out_of_range out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    const void* fill_value = nullptr;

    scatter_gather_options get() const noexcept {
        scatter_gather_options o = SCATTER_GATHER_OPTIONS_INIT;
        o.axis = axis;
        o.batch_dims = batch_dims;
        o.out_of_range = out_of_range;
        o.fill_value = fill_value;
        return o;
    }
};

/** Options of one message-passing call; the defaults are SCATTER_MESSAGE_PASSING_OPTIONS_INIT's
 *  (add, error for src and dst, zero fill). fill_value points at one element of data's dtype
 *  (src FILL only). */
struct message_passing_options {
    scatter_reduction reduction = SCATTER_REDUCTION_ADD;
    scatter_out_of_range src_out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    scatter_out_of_range dst_out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    const void* fill_value = nullptr;
    bool exclude_self = false;

    scatter_message_passing_options get() const noexcept {
        scatter_message_passing_options o = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
        o.reduction = reduction;
        o.src_out_of_range = src_out_of_range;
        o.dst_out_of_range = dst_out_of_range;
        o.fill_value = fill_value;
        o.flags = exclude_self ? SCATTER_OPTION_EXCLUDE_SELF : 0u;
        return o;
    }
};

/* ---- context --------------------------------------------------------------------------- */

/** Owns a scatter_context. */
class context {
public:
    /** Creates a context; never throws. */
    static result<context> create(const scatter_context_desc& desc) noexcept {
        scatter_context raw = nullptr;
        const scatter_status s = scatter_context_create(&desc, &raw);
        if (s != SCATTER_OK) return result<context>(detail::last_error(s));
        return result<context>(context(raw));
    }
    /** A context on `backend` with `threads` CPU threads (0: one per hardware thread). */
    static result<context> create(scatter_backend backend = SCATTER_BACKEND_AUTO, uint32_t threads = 0) noexcept {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = backend;
        desc.thread_count = threads;
        return create(desc);
    }
#if SCATTER_HPP_EXCEPTIONS
    explicit context(scatter_backend backend = SCATTER_BACKEND_AUTO, uint32_t threads = 0)
        : context(create(backend, threads).value()) {}
    explicit context(const scatter_context_desc& desc) : context(create(desc).value()) {}
#endif
    /** Takes ownership of a context made by the C API. */
    static context adopt(scatter_context raw) noexcept { return context(raw); }

    context(context&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
    context& operator=(context&& other) noexcept {
        if (this != &other) {
            scatter_context_destroy(raw_);
            raw_ = std::exchange(other.raw_, nullptr);
        }
        return *this;
    }
    context(const context&) = delete;
    context& operator=(const context&) = delete;
    ~context() { scatter_context_destroy(raw_); }

    scatter_context get() const noexcept { return raw_; }
    /** Gives up ownership; the caller destroys the context. */
    scatter_context release() noexcept { return std::exchange(raw_, nullptr); }

    result<scatter_backend> try_backend() const {
        scatter_backend b = SCATTER_BACKEND_AUTO;
        const scatter_status s = scatter_context_backend(raw_, &b);
        if (s != SCATTER_OK) return result<scatter_backend>(detail::last_error(s));
        return result<scatter_backend>(b);
    }

    /** The operations: `out` has data's shape and dtype; out may be data itself (in place). */
    result<void> try_elements(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                              const tensor_view& out, const options& opt = options()) const {
        return run(scatter_elements, data, indices, updates, out, opt);
    }
    result<void> try_rows(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                          const tensor_view& out, const options& opt = options()) const {
        return run(scatter_rows, data, indices, updates, out, opt);
    }
    result<void> try_nd(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                        const tensor_view& out, const options& opt = options()) const {
        return run(scatter_nd, data, indices, updates, out, opt);
    }
    /** The gathers: `out` is a separate tensor with the shape the operation's rule gives. */
    result<void> try_gather_elements(const tensor_view& data, const tensor_view& indices, const tensor_view& out,
                                     const gather_options& opt = gather_options()) const {
        return run_gather(scatter_gather_elements, data, indices, out, opt);
    }
    result<void> try_gather_rows(const tensor_view& data, const tensor_view& indices, const tensor_view& out,
                                 const gather_options& opt = gather_options()) const {
        return run_gather(scatter_gather_rows, data, indices, out, opt);
    }
    result<void> try_gather_nd(const tensor_view& data, const tensor_view& indices, const tensor_view& out,
                               const gather_options& opt = gather_options()) const {
        return run_gather(scatter_gather_nd, data, indices, out, opt);
    }
    /** Message passing: out[dst[e]] (op)= x[src[e]] * weights[e] over the edges in order; `weights`
     *  may be nullptr (no multiply). */
    result<void> try_message_passing(const tensor_view& data, const tensor_view& x, const tensor_view& src,
                                     const tensor_view& dst, const tensor_view* weights, const tensor_view& out,
                                     const message_passing_options& opt = message_passing_options()) const {
        const std::pair<const tensor_view*, const char*> views[] = {
            {&data, "data"}, {&x, "x"}, {&src, "src"}, {&dst, "dst"}, {weights, "weights"}, {&out, "out"}};
        for (const auto& v : views) {
            result<void> r = v.first == nullptr ? result<void>() : v.first->check_extent(v.second);
            if (!r) return r;
        }
        const scatter_message_passing_options o = opt.get();
        return detail::to_result(scatter_message_passing(raw_, data.get(), x.get(), src.get(), dst.get(),
                                                         weights == nullptr ? nullptr : weights->get(), &o, out.get()));
    }
    /** The backward calls (docs/semantics.md, "Backward"): the forward's tensors and options,
     *  `out` the forward's result (nullptr allowed for none/add/sub/mean), grad_out of data's
     *  shape; grad_data and grad_updates may each be nullptr (not both). CPU contexts. */
    result<void> try_elements_backward(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                                       const tensor_view* out, const tensor_view& grad_out, const tensor_view* grad_data,
                                       const tensor_view* grad_updates, const options& opt = options()) const {
        return run_backward(scatter_elements_backward, data, indices, updates, out, grad_out, grad_data, grad_updates,
                            opt);
    }
    result<void> try_rows_backward(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                                   const tensor_view* out, const tensor_view& grad_out, const tensor_view* grad_data,
                                   const tensor_view* grad_updates, const options& opt = options()) const {
        return run_backward(scatter_rows_backward, data, indices, updates, out, grad_out, grad_data, grad_updates, opt);
    }
    result<void> try_nd_backward(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                                 const tensor_view* out, const tensor_view& grad_out, const tensor_view* grad_data,
                                 const tensor_view* grad_updates, const options& opt = options()) const {
        return run_backward(scatter_nd_backward, data, indices, updates, out, grad_out, grad_data, grad_updates, opt);
    }
    /** Gathers' backward: grad_out scatter-added into a zeroed grad_data (the forward data's shape). */
    result<void> try_gather_elements_backward(const tensor_view& indices, const tensor_view& grad_out,
                                              const tensor_view& grad_data,
                                              const gather_options& opt = gather_options()) const {
        return run_gather(scatter_gather_elements_backward, indices, grad_out, grad_data, opt);
    }
    result<void> try_gather_rows_backward(const tensor_view& indices, const tensor_view& grad_out,
                                          const tensor_view& grad_data, const gather_options& opt = gather_options()) const {
        return run_gather(scatter_gather_rows_backward, indices, grad_out, grad_data, opt);
    }
    result<void> try_gather_nd_backward(const tensor_view& indices, const tensor_view& grad_out,
                                        const tensor_view& grad_data, const gather_options& opt = gather_options()) const {
        return run_gather(scatter_gather_nd_backward, indices, grad_out, grad_data, opt);
    }
#if SCATTER_HPP_EXCEPTIONS
    scatter_backend backend() const { return try_backend().value(); }
    void elements(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                  const tensor_view& out, const options& opt = options()) const {
        try_elements(data, indices, updates, out, opt).value();
    }
    void rows(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
              const tensor_view& out, const options& opt = options()) const {
        try_rows(data, indices, updates, out, opt).value();
    }
    void nd(const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
            const tensor_view& out, const options& opt = options()) const {
        try_nd(data, indices, updates, out, opt).value();
    }
    void gather_elements(const tensor_view& data, const tensor_view& indices, const tensor_view& out,
                         const gather_options& opt = gather_options()) const {
        try_gather_elements(data, indices, out, opt).value();
    }
    void gather_rows(const tensor_view& data, const tensor_view& indices, const tensor_view& out,
                     const gather_options& opt = gather_options()) const {
        try_gather_rows(data, indices, out, opt).value();
    }
    void gather_nd(const tensor_view& data, const tensor_view& indices, const tensor_view& out,
                   const gather_options& opt = gather_options()) const {
        try_gather_nd(data, indices, out, opt).value();
    }
    void message_passing(const tensor_view& data, const tensor_view& x, const tensor_view& src, const tensor_view& dst,
                         const tensor_view* weights, const tensor_view& out,
                         const message_passing_options& opt = message_passing_options()) const {
        try_message_passing(data, x, src, dst, weights, out, opt).value();
    }
#endif

private:
    explicit context(scatter_context raw) noexcept : raw_(raw) {}

    using op_fn = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                     const scatter_tensor*, const scatter_options*, const scatter_tensor*);
    result<void> run(op_fn fn, const tensor_view& data, const tensor_view& indices, const tensor_view& updates,
                     const tensor_view& out, const options& opt) const {
        const std::pair<const tensor_view*, const char*> views[] = {
            {&data, "data"}, {&indices, "indices"}, {&updates, "updates"}, {&out, "out"}};
        for (const auto& v : views) {
            result<void> r = v.first->check_extent(v.second);
            if (!r) return r;
        }
        const scatter_options o = opt.get();
        return detail::to_result(fn(raw_, data.get(), indices.get(), updates.get(), &o, out.get()));
    }

    using gather_fn = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                         const scatter_gather_options*, const scatter_tensor*);
    result<void> run_gather(gather_fn fn, const tensor_view& data, const tensor_view& indices, const tensor_view& out,
                            const gather_options& opt) const {
        const std::pair<const tensor_view*, const char*> views[] = {{&data, "data"}, {&indices, "indices"}, {&out, "out"}};
        for (const auto& v : views) {
            result<void> r = v.first->check_extent(v.second);
            if (!r) return r;
        }
        const scatter_gather_options o = opt.get();
        return detail::to_result(fn(raw_, data.get(), indices.get(), &o, out.get()));
    }

    using backward_fn = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                           const scatter_tensor*, const scatter_tensor*, const scatter_tensor*,
                                           const scatter_options*, const scatter_tensor*, const scatter_tensor*);
    result<void> run_backward(backward_fn fn, const tensor_view& data, const tensor_view& indices,
                              const tensor_view& updates, const tensor_view* out, const tensor_view& grad_out,
                              const tensor_view* grad_data, const tensor_view* grad_updates, const options& opt) const {
        const std::pair<const tensor_view*, const char*> views[] = {
            {&data, "data"}, {&indices, "indices"}, {&updates, "updates"}, {out, "out"},
            {&grad_out, "grad_out"}, {grad_data, "grad_data"}, {grad_updates, "grad_updates"}};
        for (const auto& v : views) {
            if (v.first == nullptr) continue;
            result<void> r = v.first->check_extent(v.second);
            if (!r) return r;
        }
        const scatter_options o = opt.get();
        return detail::to_result(fn(raw_, data.get(), indices.get(), updates.get(), out ? out->get() : nullptr,
                                    grad_out.get(), &o, grad_data ? grad_data->get() : nullptr,
                                    grad_updates ? grad_updates->get() : nullptr));
    }

    scatter_context raw_ = nullptr;
};

/* ---- buffers --------------------------------------------------------------------------- */

/** Owns a scatter_buffer: device memory on Vulkan, host memory on the CPU. Destroy (or let go
 *  out of scope) before its context. */
class buffer {
public:
    static result<buffer> create(const context& ctx, uint64_t size) noexcept {
        scatter_buffer raw = nullptr;
        const scatter_status s = scatter_buffer_create(ctx.get(), size, &raw);
        if (s != SCATTER_OK) return result<buffer>(detail::last_error(s));
        return result<buffer>(buffer(raw));
    }
#if SCATTER_HPP_EXCEPTIONS
    buffer(const context& ctx, uint64_t size) : buffer(create(ctx, size).value()) {}
#endif
    buffer(buffer&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
    buffer& operator=(buffer&& other) noexcept {
        if (this != &other) {
            scatter_buffer_destroy(raw_);
            raw_ = std::exchange(other.raw_, nullptr);
        }
        return *this;
    }
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;
    ~buffer() { scatter_buffer_destroy(raw_); }

    scatter_buffer get() const noexcept { return raw_; }
    uint64_t size() const noexcept { return scatter_buffer_size(raw_); }

    /** Copies `count` elements from host memory into the buffer at byte `offset`. */
    template <class T>
    result<void> try_write(const T* src, std::size_t count, uint64_t offset = 0) const {
        return detail::to_result(scatter_buffer_write(raw_, offset, src, uint64_t(count) * sizeof(T)));
    }
    /** Copies `count` elements of the buffer at byte `offset` into host memory. */
    template <class T>
    result<void> try_read(T* dst, std::size_t count, uint64_t offset = 0) const {
        return detail::to_result(scatter_buffer_read(raw_, offset, dst, uint64_t(count) * sizeof(T)));
    }
#if SCATTER_HPP_EXCEPTIONS
    template <class T>
    void write(const T* src, std::size_t count, uint64_t offset = 0) const {
        try_write(src, count, offset).value();
    }
    template <class T>
    void read(T* dst, std::size_t count, uint64_t offset = 0) const {
        try_read(dst, count, offset).value();
    }
#endif

private:
    explicit buffer(scatter_buffer raw) noexcept : raw_(raw) {}
    scatter_buffer raw_ = nullptr;
};

template <class T>
tensor_view tensor_view::in_buffer(const buffer& b, std::initializer_list<int64_t> shape, uint64_t byte_offset,
                                   std::initializer_list<int64_t> strides) {
    return in_buffer(b, dtype_of<std::remove_cv_t<T>>::value, 0, shape.begin(), uint32_t(shape.size()), byte_offset,
                     strides.size() ? strides.begin() : nullptr);
}

inline tensor_view tensor_view::in_buffer(const buffer& b, scatter_dtype dtype, uint32_t element_size,
                                          const int64_t* shape, uint32_t rank, uint64_t byte_offset,
                                          const int64_t* strides) {
    tensor_view v;
    v.init(dtype, element_size, shape, rank, strides);
    v.tensor_.buffer = b.get();
    v.tensor_.byte_offset = byte_offset;
    return v;
}

/* ---- devices and version --------------------------------------------------------------- */

/** Every device: the CPU first, then each Vulkan device (scatter_devices). */
inline result<std::vector<scatter_device_info>> try_devices() {
    uint32_t count = 0;
    scatter_status s = scatter_devices(nullptr, &count);
    if (s != SCATTER_OK) return result<std::vector<scatter_device_info>>(detail::last_error(s));
    std::vector<scatter_device_info> infos(count);
    for (scatter_device_info& info : infos) info.struct_size = uint32_t(sizeof info);
    s = scatter_devices(infos.data(), &count);
    if (s != SCATTER_OK) return result<std::vector<scatter_device_info>>(detail::last_error(s));
    infos.resize(count);
    return result<std::vector<scatter_device_info>>(std::move(infos));
}
#if SCATTER_HPP_EXCEPTIONS
inline std::vector<scatter_device_info> devices() { return try_devices().value(); }
#endif

/** The loaded library's version string ("0.1.0"). */
inline std::string version() { return scatter_version_string(); }

}  // namespace scatter

#endif  // SCATTER_SCATTER_HPP
