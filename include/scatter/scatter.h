/*
 * libscatter — scatter on the CPU or any Vulkan GPU behind a stable C ABI.
 *
 * This header is the manual. It is C99, depends only on <stdint.h> and <stddef.h>, and is
 * usable from C++ and from any language with a C FFI. C++ programs may also use the optional
 * header-only layer <scatter/scatter.hpp> (RAII handles, tensor views, exceptions or results).
 *
 * ## Quick start
 * Link with -lscatter (pkg-config scatter; CMake: scatter::scatter). This adds [1, 1, 1] into a
 * 4-element array at positions [1, 1, 3], in place:
 *
 *   scatter_context ctx;
 *   if (scatter_context_create(NULL, &ctx) != SCATTER_OK) return 1;  // AUTO backend
 *   float data[4] = {0, 0, 0, 0}, updates[3] = {1, 1, 1};
 *   int64_t indices[3] = {1, 1, 3}, four[1] = {4}, three[1] = {3};
 *   scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT;
 *   d.dtype = u.dtype = SCATTER_DTYPE_F32;
 *   i.dtype = SCATTER_DTYPE_I64;
 *   d.rank = i.rank = u.rank = 1;
 *   d.shape = four;
 *   i.shape = u.shape = three;
 *   d.data = data;
 *   i.data = indices;
 *   u.data = updates;
 *   scatter_options opt = SCATTER_OPTIONS_INIT;
 *   opt.reduction = SCATTER_REDUCTION_ADD;
 *   if (scatter_elements(ctx, &d, &i, &u, &opt, &d) != SCATTER_OK)   // out = data: in place
 *       fprintf(stderr, "%s\n", scatter_last_error_message());
 *   printf("%g %g %g %g\n", data[0], data[1], data[2], data[3]);        // 0 2 0 1
 *   scatter_context_destroy(ctx);
 *
 * ## Operations
 * Three operations write or reduce `updates` into a copy of `data` (or into `data` itself when
 * `out` names the same memory) at positions named by `indices`:
 *
 *   scatter_elements  ONNX ScatterElements, PyTorch scatter_/scatter_reduce_.
 *                     rank(data) = rank(indices) = rank(updates) = r >= 1,
 *                     indices.shape == updates.shape, indices.shape[d] <= data.shape[d] for
 *                     d != axis. The update at position p goes to p with p[axis] = indices[p].
 *   scatter_rows      MindSpore scatter_*, Paddle scatter, PyTorch index_add_/index_copy_.
 *                     indices of any rank q >= 0; updates.shape == data.shape[:axis] +
 *                     indices.shape + data.shape[axis+1:]. The slice of updates at index
 *                     position p goes to the slice of data at indices[p] on `axis`.
 *   scatter_nd        ONNX ScatterND, TensorFlow tensor_scatter_nd_*. indices.shape = [..., k]
 *                     with 1 <= k <= r; updates.shape == indices.shape[:-1] + data.shape[k:].
 *
 * The gathers (scatter_gather_elements / _rows / _nd, below) are their mirror: they read `data`
 * at the positions `indices` names into a new tensor `out`.
 *
 * Updates to one target are applied in row-major order of their position in `indices`, starting
 * from the target's value in `data` (or from the reduction's identity with exclude_self). `none`
 * therefore means "the last update wins". See docs/semantics.md for every rule.
 *
 * ## Errors
 * Every fallible function returns a scatter_status; SCATTER_OK is 0. Results go out through
 * trailing pointer parameters, written only on success. After a failure,
 * scatter_last_error_message() gives a one-sentence reason on the calling thread.
 *
 * ## Atomicity
 * When an operation fails, `out` (and `data`, when in-place) is byte-for-byte unchanged. All
 * shapes, types, options, every index under the chosen out-of-range policy and every integer
 * divisor are checked before the first byte is written.
 *
 * ## Ownership
 * The library never takes ownership of caller memory. Tensors describe caller memory only for
 * the duration of a call. Handles created by scatter_*_create are destroyed by the matching
 * scatter_*_destroy.
 *
 * ## Threading
 * All functions are thread-safe. One context may be used from several threads at once; calls on
 * one context from different threads run independently (the caller must not let two concurrent
 * calls write the same memory). The last-error message is per thread.
 *
 * ## Determinism
 * By default results are bitwise identical from run to run, for any thread count and on every
 * backend, subnormals included — except f64 products (f64/c128 mul, c128 div) on a Vulkan device
 * without SCATTER_FEATURE_DENORM_PRESERVE64 that flushes f64 subnormals to zero. (f32 and f64
 * add/sub and f32 mul are exact in software there.) SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM (or the
 * per-call option flag) permits faster paths whose float results may depend on the order in which
 * duplicates are applied (on Vulkan: updates land in arrival order, through atomics for every
 * reduction but mean). Integer reductions stay exact either way: they wrap.
 */
#ifndef SCATTER_SCATTER_H
#define SCATTER_SCATTER_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(SCATTER_SHARED_LIBRARY)
#  if defined(SCATTER_BUILDING_LIBRARY)
#    define SCATTER_API __declspec(dllexport)
#  else
#    define SCATTER_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define SCATTER_API __attribute__((visibility("default")))
#else
#  define SCATTER_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Version
 * ------------------------------------------------------------------------------------------- */

/** Packs a version as (major << 22) | (minor << 12) | patch. */
#define SCATTER_MAKE_VERSION(major, minor, patch) \
    ((((uint32_t)(major)) << 22) | (((uint32_t)(minor)) << 12) | ((uint32_t)(patch)))
#define SCATTER_VERSION_MAJOR 0
#define SCATTER_VERSION_MINOR 1
#define SCATTER_VERSION_PATCH 0
/** The version this header describes. Compare with scatter_version() at run time. */
#define SCATTER_VERSION \
    SCATTER_MAKE_VERSION(SCATTER_VERSION_MAJOR, SCATTER_VERSION_MINOR, SCATTER_VERSION_PATCH)

/** Returns the version of the loaded library, packed as SCATTER_MAKE_VERSION does. A binding
 *  should check that the major part equals the major part it was written for. Never fails. */
SCATTER_API uint32_t scatter_version(void);

/** Returns the version of the loaded library as a static string, e.g. "0.1.0". Never fails. */
SCATTER_API const char* scatter_version_string(void);

/* ---------------------------------------------------------------------------------------------
 * Status codes: values are pinned forever.
 * ------------------------------------------------------------------------------------------- */

/* X(name, value, description): the single list the enum and scatter_status_name come from. */
#define SCATTER_STATUS_LIST(X)                                                                 \
    X(SCATTER_OK, 0, "success")                                                                \
    X(SCATTER_ERROR_INVALID_ARGUMENT, 1,                                                       \
      "null pointer, bad enum, bad axis, bad option or integer division by zero")              \
    X(SCATTER_ERROR_TYPE_MISMATCH, 2, "dtypes of the tensors do not fit together")             \
    X(SCATTER_ERROR_SHAPE_MISMATCH, 3, "shapes or ranks of the tensors do not fit together")   \
    X(SCATTER_ERROR_INDEX_OUT_OF_RANGE, 4, "an index is outside its dimension")                \
    X(SCATTER_ERROR_UNSUPPORTED, 5, "the combination is valid but not supported")              \
    X(SCATTER_ERROR_OUT_OF_MEMORY, 6, "host or device memory could not be allocated")          \
    X(SCATTER_ERROR_BACKEND_UNAVAILABLE, 7, "the requested backend or device is not present")  \
    X(SCATTER_ERROR_DEVICE_LOST, 8, "the device was lost")                                     \
    X(SCATTER_ERROR_INTERNAL, 9, "an internal error; please report it")

#define SCATTER_STATUS_ENUMERATOR_(name, value, description) name = value,
typedef enum scatter_status {
    SCATTER_STATUS_LIST(SCATTER_STATUS_ENUMERATOR_)
    SCATTER_STATUS_FORCE32_ = 0x7fffffff
} scatter_status;
#undef SCATTER_STATUS_ENUMERATOR_

/** Returns the enumerator's name ("SCATTER_ERROR_SHAPE_MISMATCH"), or "SCATTER_STATUS_UNKNOWN"
 *  for a value outside the list. The string is static. Never fails. */
SCATTER_API const char* scatter_status_name(scatter_status status);

/** Returns the message of the last failed call on this thread (one sentence naming the offending
 *  value, e.g. "indices[1][2] = 7 is outside [-3, 3) on axis 0"), or "" if no call on this thread
 *  has failed. A successful call does not clear it. The string stays valid until the next libscatter
 *  call on the same thread. Never fails. */
SCATTER_API const char* scatter_last_error_message(void);

/* ---------------------------------------------------------------------------------------------
 * Enumerations. In every input enum 0 means "default".
 * ------------------------------------------------------------------------------------------- */

/** Element types. Data and updates must have the same dtype; indices are I32 or I64. */
typedef enum scatter_dtype {
    SCATTER_DTYPE_UNDEFINED = 0, /* invalid in a tensor */
    SCATTER_DTYPE_F16 = 1,       /* IEEE binary16; steps compute in f32, rounded after each */
    SCATTER_DTYPE_BF16 = 2,      /* bfloat16; steps compute in f32, rounded after each */
    SCATTER_DTYPE_F32 = 3,
    SCATTER_DTYPE_F64 = 4,
    SCATTER_DTYPE_I8 = 5,
    SCATTER_DTYPE_I16 = 6,
    SCATTER_DTYPE_I32 = 7,
    SCATTER_DTYPE_I64 = 8,
    SCATTER_DTYPE_U8 = 9,
    SCATTER_DTYPE_U16 = 10,
    SCATTER_DTYPE_U32 = 11,
    SCATTER_DTYPE_U64 = 12,
    SCATTER_DTYPE_BOOL = 13,     /* one byte; 0 is false, anything else true; add/mul give 0 or 1 */
    SCATTER_DTYPE_C64 = 14,      /* two f32: real, imaginary */
    SCATTER_DTYPE_C128 = 15,     /* two f64: real, imaginary */
    SCATTER_DTYPE_OPAQUE = 16,   /* element_size raw bytes (strings, structs); only `none` */
    SCATTER_DTYPE_FORCE32_ = 0x7fffffff
} scatter_dtype;

/** Returns the size in bytes of one element of `dtype` (0 for UNDEFINED, OPAQUE or an unknown
 *  value, whose size is given by the tensor). Never fails. */
SCATTER_API size_t scatter_dtype_size(scatter_dtype dtype);

/** Returns the dtype's lowercase name ("f32", "opaque"), or "unknown". Never fails. */
SCATTER_API const char* scatter_dtype_name(scatter_dtype dtype);

/** How updates combine with their target. DEFAULT is NONE.
 *  float and integer dtypes: all; complex: none/add/sub/mul/div/mean;
 *  bool: none/add (logical or)/mul (logical and); opaque: none. Anything else is UNSUPPORTED. */
typedef enum scatter_reduction {
    SCATTER_REDUCTION_DEFAULT = 0,
    SCATTER_REDUCTION_NONE = 1, /* assign: the last update in row-major order wins */
    SCATTER_REDUCTION_ADD = 2,  /* t + u; integers wrap */
    SCATTER_REDUCTION_SUB = 3,  /* t - u; integers wrap */
    SCATTER_REDUCTION_MUL = 4,  /* t * u; integers wrap */
    SCATTER_REDUCTION_DIV = 5,  /* t / u; integers truncate, a zero divisor is an error */
    SCATTER_REDUCTION_MAX = 6,  /* NaN propagates */
    SCATTER_REDUCTION_MIN = 7,  /* NaN propagates */
    SCATTER_REDUCTION_MEAN = 8, /* (self + sum) / (1 + count); integers use floor division */
    SCATTER_REDUCTION_FORCE32_ = 0x7fffffff
} scatter_reduction;

/** What happens to an index outside [-s, s) of its dimension (negative indices count from the
 *  back in every policy). DEFAULT is ERROR. Scatter takes ERROR, SKIP and CLAMP; gather takes
 *  ERROR, CLAMP and FILL. */
typedef enum scatter_out_of_range {
    SCATTER_OUT_OF_RANGE_DEFAULT = 0,
    SCATTER_OUT_OF_RANGE_ERROR = 1, /* the call fails with SCATTER_ERROR_INDEX_OUT_OF_RANGE */
    SCATTER_OUT_OF_RANGE_SKIP = 2,  /* the update (for rows/nd: the whole slice) is ignored */
    SCATTER_OUT_OF_RANGE_CLAMP = 3, /* the index is clamped into [0, s-1] */
    SCATTER_OUT_OF_RANGE_FILL = 4,  /* gather only: the out element (rows/nd: the whole slice)
                                       takes scatter_gather_options.fill_value */
    SCATTER_OUT_OF_RANGE_FORCE32_ = 0x7fffffff
} scatter_out_of_range;

/** Backends. AUTO first looks, at context creation, for a Vulkan GPU: a device of type discrete,
 *  integrated or virtual GPU (CPU-type devices such as lavapipe never count). Without one, or
 *  when a Vulkan context cannot be created on it (logged as a WARNING with the reason), AUTO is
 *  the CPU backend for the context's whole life. With one, the context holds both backends and
 *  routes each call: operations on buffers run on Vulkan, where the buffers live; operations on
 *  host tensors run where a cost model predicts them to finish first (staging copies and the GPU
 *  round trip included). The model is one line per backend, time = fixed + bytes x per-byte, with
 *  bytes = those of data + out + indices + updates; both lines are measured once, on the
 *  context's first call on host tensors, by probe operations (elements, axis 0, f32 add on 8x8
 *  and 1024x1024 host tensors, best of 5 and of 2 runs on each backend: a few ms on a GPU
 *  machine), then kept; a tie goes to the CPU. Capability comes before cost: a host call the
 *  device refuses as UNSUPPORTED (a feature it lacks, a size it does not address; refused before
 *  anything is written) runs on the CPU instead, so a call's status never depends on its size or
 *  route, and the result is bitwise the same. The measured lines and each call's route are
 *  logged at DEBUG level, and the route is in the call's profile. */
typedef enum scatter_backend {
    SCATTER_BACKEND_AUTO = 0,
    SCATTER_BACKEND_CPU = 1,
    SCATTER_BACKEND_VULKAN = 2,
    SCATTER_BACKEND_FORCE32_ = 0x7fffffff
} scatter_backend;

/** Returns "auto", "cpu", "vulkan" or "unknown". Never fails. */
SCATTER_API const char* scatter_backend_name(scatter_backend backend);

/** Returns "none", "add", "sub", "mul", "div", "max", "min", "mean" ("none" for DEFAULT) or
 *  "unknown". Never fails. */
SCATTER_API const char* scatter_reduction_name(scatter_reduction reduction);

/* ---------------------------------------------------------------------------------------------
 * Contexts
 * ------------------------------------------------------------------------------------------- */

typedef struct scatter_context_t* scatter_context;
typedef struct scatter_buffer_t* scatter_buffer;

/** Host allocator. alloc returns memory aligned to `alignment` (a power of two <= 4096) or NULL;
 *  free releases it (ptr may be NULL). Both may be called from any thread at once. A context
 *  with an allocator gives every block of a call's scratch back to it before the call returns.
 *  Without one, a context keeps freed scratch blocks of 64 KiB or more (at most 8 blocks,
 *  256 MiB in all, the most recently used) for its next calls, which then touch no fresh pages;
 *  destroying the context (and its buffers) frees them. */
typedef struct scatter_allocator {
    void* user;
    void* (*alloc)(void* user, size_t size, size_t alignment);
    void (*free)(void* user, void* ptr);
} scatter_allocator;

/** Runs task(task_data, i) for every i in [0, task_count), possibly concurrently on any threads,
 *  and returns when all have finished. Lets a host job system run libscatter's CPU work. Index
 *  and divisor validation run through it too, so libscatter counts the tasks that ran: a callback
 *  that returns before running every task makes the call fail with SCATTER_ERROR_INTERNAL (the
 *  message names the callback), and `out` may then be partly written. */
typedef void (*scatter_task_fn)(void* task_data, uint32_t task_index);
typedef void (*scatter_parallel_for_fn)(void* user, uint32_t task_count, scatter_task_fn task,
                                        void* task_data);

typedef enum scatter_log_level {
    SCATTER_LOG_DEBUG = 0,
    SCATTER_LOG_INFO = 1,
    SCATTER_LOG_WARNING = 2,
    SCATTER_LOG_ERROR = 3,
    SCATTER_LOG_FORCE32_ = 0x7fffffff
} scatter_log_level;

/** Receives log messages (a NUL-terminated line valid only during the call). May be called from
 *  any thread that uses the context, concurrently. Logged: at context creation, what AUTO uses
 *  and why (INFO; WARNING when a GPU is present but unusable, with the reason) and the Vulkan
 *  device a context uses with the optional features its shaders will use (INFO); for AUTO, its
 *  measured cost model and each call's route with the predicted times (DEBUG); with
 *  SCATTER_CONTEXT_FLAG_VALIDATION, every message of the Vulkan validation layer (WARNING or
 *  ERROR; contexts share devices, so a message may come from another context's work on the same
 *  device) and a WARNING when the layer is missing. Failed calls are not logged: they return a
 *  status and set scatter_last_error. */
typedef void (*scatter_log_fn)(void* user, scatter_log_level level, const char* message);

/** Context flags. */
#define SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM 0x1u /* faster order-dependent paths allowed */
#define SCATTER_CONTEXT_FLAG_VALIDATION 0x2u /* Vulkan: enable the validation layer if present */
#define SCATTER_CONTEXT_FLAG_PROFILE 0x4u /* time each operation: scatter_last_profile */

/** The most CPU threads a context's own pool runs: a larger thread_count means this many. */
#define SCATTER_MAX_THREAD_COUNT 1024u

/** Describes a context. Start from SCATTER_CONTEXT_DESC_INIT; unknown trailing fields of a newer
 *  header must be zero. */
typedef struct scatter_context_desc {
    uint32_t struct_size;     /* sizeof(scatter_context_desc) */
    scatter_backend backend;  /* AUTO, CPU or VULKAN */
    int32_t device_index;     /* Vulkan device index from scatter_devices, or -1 to choose
                                 automatically (discrete > integrated > virtual > CPU type) */
    uint32_t thread_count;    /* CPU threads in all, the calling thread's included; 0 means one
                                 per hardware thread; capped at SCATTER_MAX_THREAD_COUNT. When
                                 the system refuses a thread (process, pid or memory limit),
                                 the context runs on the threads that started, at most one per
                                 hardware thread (the rest end and give their memory back),
                                 and logs a WARNING; results do not depend on it. Worker
                                 threads run on 1 MiB stacks (POSIX). Ignored when
                                 parallel_for is set. */
    uint32_t flags;           /* SCATTER_CONTEXT_FLAG_* */
    scatter_parallel_for_fn parallel_for; /* optional host job system; NULL uses own threads */
    void* parallel_for_user;
    const scatter_allocator* allocator;   /* optional; copied at creation; NULL uses malloc */
    scatter_log_fn log;                   /* optional */
    void* log_user;
} scatter_context_desc;

#define SCATTER_CONTEXT_DESC_INIT \
    { (uint32_t)sizeof(scatter_context_desc), SCATTER_BACKEND_AUTO, -1, 0u, 0u, NULL, NULL, NULL, NULL, NULL }

/** Creates a context: the backend, its device, threads and caches. desc may be NULL for the
 *  defaults. Vulkan contexts of one process share a VkInstance (one with and one without the
 *  validation layer) and a device per physical device (with its pipelines and caches), created
 *  by the first context that needs them and kept until the process exits: later contexts cost
 *  microseconds, and drivers that allow only a few dozen instances per process are never
 *  exhausted. Operations of several contexts on one device run concurrently and safely.
 *  *out_context is written only on success; destroy it with scatter_context_destroy.
 *  Returns INVALID_ARGUMENT (null out_context, bad struct_size, enum or flag),
 *  UNSUPPORTED (a nonzero field unknown to this version), BACKEND_UNAVAILABLE (Vulkan asked for
 *  but no loader, driver or device with that index), OUT_OF_MEMORY, INTERNAL. */
SCATTER_API scatter_status scatter_context_create(const scatter_context_desc* desc,
                                                  scatter_context* out_context);

/** Destroys a context and everything it owns. NULL is ignored. No other call may use the
 *  context handle during or after this call. Buffers, batches and recordings created on it may
 *  be destroyed before or after it, in any order (a garbage collector's order is fine): while any
 *  of them lives, the context's backend, device memory and threads stay and are released when
 *  the last of them is destroyed; such a buffer can still be read, written and copied. The shared
 *  Vulkan instance and device stay for the next context (see scatter_context_create). */
SCATTER_API void scatter_context_destroy(scatter_context context);

/** Writes the backend the context runs on (CPU or VULKAN, never AUTO: an AUTO context that
 *  routes calls between the CPU and a GPU reports VULKAN, the home of its buffers; the profile
 *  of a call says where that call ran) to *out_backend.
 *  Returns INVALID_ARGUMENT for a null argument. */
SCATTER_API scatter_status scatter_context_backend(scatter_context context,
                                                   scatter_backend* out_backend);

/* ---------------------------------------------------------------------------------------------
 * Devices
 * ------------------------------------------------------------------------------------------- */

typedef enum scatter_device_type {
    SCATTER_DEVICE_TYPE_OTHER = 0,
    SCATTER_DEVICE_TYPE_INTEGRATED_GPU = 1,
    SCATTER_DEVICE_TYPE_DISCRETE_GPU = 2,
    SCATTER_DEVICE_TYPE_VIRTUAL_GPU = 3,
    SCATTER_DEVICE_TYPE_CPU = 4,
    SCATTER_DEVICE_TYPE_FORCE32_ = 0x7fffffff
} scatter_device_type;

/** Device features that matter to scatter (bit mask in scatter_device_info.features). */
#define SCATTER_FEATURE_INT8 0x1ull
#define SCATTER_FEATURE_INT16 0x2ull
#define SCATTER_FEATURE_INT64 0x4ull
#define SCATTER_FEATURE_FLOAT16 0x8ull
#define SCATTER_FEATURE_FLOAT64 0x10ull
#define SCATTER_FEATURE_STORAGE8 0x20ull
#define SCATTER_FEATURE_STORAGE16 0x40ull
#define SCATTER_FEATURE_INT64_ATOMICS 0x80ull
#define SCATTER_FEATURE_FLOAT32_ATOMIC_ADD 0x100ull
#define SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX 0x200ull
#define SCATTER_FEATURE_SUBGROUPS 0x400ull
/** bufferDeviceAddress (Vulkan 1.2): a tensor larger than its 4 storage-buffer windows (4 x
 *  maxStorageBufferRange, at most 512 MiB each) is reached by address instead, up to 4 GiB within
 *  one allocation of its buffer. Without it such a tensor is UNSUPPORTED. */
#define SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS 0x800ull
/** Subnormal f32 (f16, bf16, c64) / f64 (c128) values are kept by arithmetic, not flushed to
 *  zero (shaderDenormPreserveFloat32/64). Without it, results are still the CPU's (a slower exact
 *  path for tiny operands), except f64 products with subnormals where the device flushes them. */
#define SCATTER_FEATURE_DENORM_PRESERVE32 0x1000ull
#define SCATTER_FEATURE_DENORM_PRESERVE64 0x2000ull
/** 64-bit integer atomics on workgroup shared memory (shaderSharedInt64Atomics): the slab path's
 *  order-free reductions of 8-byte elements (i64/u64 add, sub, max, min; f64 max, min). */
#define SCATTER_FEATURE_SHARED_INT64_ATOMICS 0x4000ull

/** One device. Strings are NUL-terminated UTF-8. */
typedef struct scatter_device_info {
    uint32_t struct_size;      /* set by the caller to sizeof(scatter_device_info) */
    scatter_backend backend;   /* CPU or VULKAN */
    uint32_t index;            /* device_index to pass in scatter_context_desc (Vulkan) */
    scatter_device_type type;
    char name[256];
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t api_version;      /* Vulkan API version; 0 for the CPU */
    uint32_t thread_count;     /* CPU: hardware threads; Vulkan: subgroup size */
    uint64_t features;         /* SCATTER_FEATURE_* */
    uint64_t max_buffer_range; /* largest single binding in bytes; UINT64_MAX for the CPU */
} scatter_device_info;

/** Lists the devices: entry 0 is always the CPU, then every Vulkan device in driver order.
 *  With infos NULL, writes the number of devices to *count. Otherwise *count is the capacity of
 *  infos (each with struct_size set); writes min(capacity, total) entries and sets *count to the
 *  number written. Vulkan being absent is not an error (only the CPU is listed).
 *  Growth: entries are infos[0].struct_size bytes apart, so a program built against a newer,
 *  larger scatter_device_info works with this library; the fields this library does not know are
 *  set to zero. Every entry must have the same struct_size, at least this header's
 *  sizeof(scatter_device_info) (the first version of the struct).
 *  Returns INVALID_ARGUMENT for a null count or a bad struct_size (nothing is written then).
 *  Thread-safe. */
SCATTER_API scatter_status scatter_devices(scatter_device_info* infos, uint32_t* count);

/* ---------------------------------------------------------------------------------------------
 * Buffers: memory owned by a context (device memory on Vulkan, host memory on the CPU).
 * ------------------------------------------------------------------------------------------- */

/** Creates a buffer of `size` bytes (size may be 0) on the context; its contents start as zeros.
 *  On Vulkan a buffer may be larger than one device allocation (it is then several, invisibly);
 *  a tensor in it may lie anywhere but span at most 4 storage-buffer windows (docs/vulkan.md).
 *  *out_buffer is written only on success. Returns INVALID_ARGUMENT (null argument),
 *  OUT_OF_MEMORY, DEVICE_LOST. Destroy with scatter_buffer_destroy, before or after the context
 *  (scatter_context_destroy says how). */
SCATTER_API scatter_status scatter_buffer_create(scatter_context context, uint64_t size,
                                                 scatter_buffer* out_buffer);

/** Destroys a buffer. NULL is ignored. No operation may be using it. Destroying the last
 *  buffer, batch or recording of a context already destroyed releases that context. */
SCATTER_API void scatter_buffer_destroy(scatter_buffer buffer);

/** Returns the size in bytes of the buffer, or 0 for NULL. */
SCATTER_API uint64_t scatter_buffer_size(scatter_buffer buffer);

/** Copies `size` bytes from host memory `src` into the buffer at `offset`. Returns
 *  INVALID_ARGUMENT (null pointer, range outside the buffer), DEVICE_LOST. On failure the buffer
 *  is unchanged. */
SCATTER_API scatter_status scatter_buffer_write(scatter_buffer buffer, uint64_t offset,
                                                const void* src, uint64_t size);

/** Copies `size` bytes of the buffer at `offset` into host memory `dst`. Returns
 *  INVALID_ARGUMENT (null pointer, range outside the buffer), DEVICE_LOST. On failure dst is
 *  unchanged. */
SCATTER_API scatter_status scatter_buffer_read(scatter_buffer buffer, uint64_t offset, void* dst,
                                               uint64_t size);

/** Copies `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`, on the device that
 *  holds them (a vkCmdCopyBuffer on Vulkan, no host round trip; a memmove on the CPU). Both
 *  buffers must belong to the same context. Returns INVALID_ARGUMENT (null buffer, ranges outside
 *  the buffers, buffers of different contexts, overlapping ranges of one buffer), DEVICE_LOST,
 *  OUT_OF_MEMORY. On failure dst is unchanged. Thread rule: as scatter_buffer_write. */
SCATTER_API scatter_status scatter_buffer_copy(scatter_buffer src, uint64_t src_offset, scatter_buffer dst,
                                               uint64_t dst_offset, uint64_t size);

/* ---------------------------------------------------------------------------------------------
 * Tensors
 * ------------------------------------------------------------------------------------------- */

/** The largest rank any tensor may have. */
#define SCATTER_MAX_RANK 16

/** A view of caller memory (host pointer) or of a buffer (buffer + byte_offset; set `data` to
 *  NULL). Element (i0, ..., ik) is at base + sum(i_d * strides[d]) * element size; strides are in
 *  elements and may be negative or (for tensors that are only read) zero; NULL strides mean
 *  contiguous row-major. A tensor with a zero-size dimension may have a NULL data pointer. The
 *  shape and strides arrays are read only during the call. */
typedef struct scatter_tensor {
    uint32_t struct_size;      /* sizeof(scatter_tensor) */
    scatter_dtype dtype;
    uint32_t element_size;     /* OPAQUE: bytes per element (>= 1); others: 0 or the dtype size */
    uint32_t rank;             /* 0 .. SCATTER_MAX_RANK */
    const int64_t* shape;      /* rank entries >= 0; may be NULL when rank is 0 */
    const int64_t* strides;    /* rank entries or NULL */
    void* data;                /* host memory, or NULL with a buffer */
    scatter_buffer buffer;     /* a buffer of the call's context, or NULL */
    uint64_t byte_offset;      /* offset of element 0 in the buffer */
} scatter_tensor;

#define SCATTER_TENSOR_INIT \
    { (uint32_t)sizeof(scatter_tensor), SCATTER_DTYPE_UNDEFINED, 0u, 0u, NULL, NULL, NULL, NULL, 0u }

/* ---------------------------------------------------------------------------------------------
 * Operations
 * ------------------------------------------------------------------------------------------- */

/** Option flags. */
#define SCATTER_OPTION_EXCLUDE_SELF 0x1u /* a hit target starts from the reduction's identity
                                            (PyTorch include_self=False) */
#define SCATTER_OPTION_ALLOW_NONDETERMINISM 0x2u /* this call may use order-dependent fast paths */

/** Options of one operation. Start from SCATTER_OPTIONS_INIT; NULL options mean the defaults
 *  (axis 0, none, error, no flags). */
typedef struct scatter_options {
    uint32_t struct_size;            /* sizeof(scatter_options) */
    int32_t axis;                    /* elements/rows: in [-r, r); negative counts from the back.
                                        nd: must be 0. */
    scatter_reduction reduction;
    scatter_out_of_range out_of_range;
    uint32_t flags;                  /* SCATTER_OPTION_* */
} scatter_options;

#define SCATTER_OPTIONS_INIT \
    { (uint32_t)sizeof(scatter_options), 0, SCATTER_REDUCTION_DEFAULT, SCATTER_OUT_OF_RANGE_DEFAULT, 0u }

/*
 * The three operations share one contract:
 * - `out` has the shape and dtype of `data` (strides may differ). `out` may describe exactly the
 *   same memory as `data` (same base and strides): the operation then runs in place. Any other
 *   overlap of `out` with `data`, `indices` or `updates`, or an `out` whose own elements overlap
 *   (a zero stride on a dimension longer than 1), is INVALID_ARGUMENT.
 * - Returns INVALID_ARGUMENT (null context or tensor, null data pointer for a non-empty tensor,
 *   bad struct_size, enum, flag or axis, overlapping out, integer division by zero),
 *   TYPE_MISMATCH (data/updates/out dtypes differ, indices not I32/I64),
 *   SHAPE_MISMATCH (ranks or shapes that break the op's rules, 0-d data, element counts whose
 *   byte size overflows), INDEX_OUT_OF_RANGE (policy ERROR and an index outside [-s, s)),
 *   UNSUPPORTED (dtype/reduction pair not in the table, a backend lacking a device feature, a
 *   compute pipeline the Vulkan driver refused: the message names the shader and the VkResult,
 *   the device remembers the refusal, and its later calls take a path without that pipeline
 *   where one exists; an AUTO context runs such host calls on its CPU),
 *   OUT_OF_MEMORY, DEVICE_LOST, INTERNAL.
 * - On failure `out` (and `data`, when in place) is byte-for-byte unchanged.
 * - Thread rule: any thread, concurrently on one context, as long as no two concurrent calls
 *   write the same memory.
 */

/** Elements scatter (ONNX ScatterElements). See the contract above. */
SCATTER_API scatter_status scatter_elements(scatter_context context, const scatter_tensor* data,
                                            const scatter_tensor* indices,
                                            const scatter_tensor* updates,
                                            const scatter_options* options,
                                            const scatter_tensor* out);

/** Rows scatter (MindSpore scatter_*, Paddle scatter, PyTorch index_add_). See above. */
SCATTER_API scatter_status scatter_rows(scatter_context context, const scatter_tensor* data,
                                        const scatter_tensor* indices,
                                        const scatter_tensor* updates,
                                        const scatter_options* options,
                                        const scatter_tensor* out);

/** N-d scatter (ONNX ScatterND, TensorFlow tensor_scatter_nd_*). options->axis must be 0.
 *  See the contract above. */
SCATTER_API scatter_status scatter_nd(scatter_context context, const scatter_tensor* data,
                                      const scatter_tensor* indices,
                                      const scatter_tensor* updates,
                                      const scatter_options* options, const scatter_tensor* out);

/* ---------------------------------------------------------------------------------------------
 * Gather: the mirror of the three operations
 *
 * Each gather reads elements of `data` at positions named by `indices` into `out`, a separate
 * tensor whose shape the indices decide (r = rank(data), q = rank(indices)):
 *
 *   scatter_gather_elements  ONNX GatherElements, torch.gather, numpy.take_along_axis.
 *                            r = q >= 1; indices.shape[d] <= data.shape[d] for d != axis;
 *                            out.shape == indices.shape; out[p] = data[p with p[axis] =
 *                            indices[p]].
 *   scatter_gather_rows      ONNX Gather, torch.index_select, numpy.take, tf.gather(axis=).
 *                            indices of any rank q >= 0 (0-d included); out.shape ==
 *                            data.shape[:axis] + indices.shape + data.shape[axis+1:]; the slice
 *                            of out at index position p is the slice of data at indices[p] on
 *                            `axis`.
 *   scatter_gather_nd        ONNX GatherND, tf.gather_nd, with b = options->batch_dims >= 0:
 *                            indices.shape = [..., k] with k >= 1 and b + k <= r, and
 *                            indices.shape[:b] == data.shape[:b]; out.shape ==
 *                            indices.shape[:-1] + data.shape[b+k:]. At index position p (batch
 *                            position p[:b]) the k coordinates name the slice
 *                            data[p[:b]][i0]...[ik-1] (an element when b + k == r).
 *
 * Indices (docs/semantics.md): negative ones count from the back, i in [-s, s) is valid for a
 * dimension of size s. The out-of-range policy decides the rest:
 *   ERROR (DEFAULT)  any index outside [-s, s) fails the call with INDEX_OUT_OF_RANGE, naming the
 *                    first one in row-major order of `indices` ("indices[1][2] = 7 is outside
 *                    [-3, 3) on axis 0"); every index is checked, also one whose slice of out is
 *                    empty.
 *   CLAMP            wrapped as above, then clamped into [0, s-1] (as scatter's CLAMP). A
 *                    dimension of size 0 has no element to clamp to: any index into one is
 *                    INDEX_OUT_OF_RANGE (scatter's CLAMP skips such an update; gather has no skip).
 *   FILL             the out element (rows and nd: the whole slice, when any of its coordinates
 *                    is out of range) takes options->fill_value.
 * SKIP is not a gather policy (INVALID_ARGUMENT).
 *
 * Every dtype gathers the same way, OPAQUE (any element_size) included: elements are copied as
 * bytes, so NaN payloads, signed zeros and non-0/1 bools arrive unchanged. Results do not depend
 * on the thread count: each out element is written once.
 * ------------------------------------------------------------------------------------------- */

/** Options of one gather. Start from SCATTER_GATHER_OPTIONS_INIT; NULL options mean the defaults
 *  (axis 0, batch_dims 0, ERROR, zero fill value, no flags). */
typedef struct scatter_gather_options {
    uint32_t struct_size;              /* sizeof(scatter_gather_options) */
    int32_t axis;                      /* elements/rows: in [-r, r); negative counts from the back.
                                          nd: must be 0. */
    uint32_t batch_dims;               /* nd: b, less than rank(data) and rank(indices) (ONNX
                                          GatherND / tf.gather_nd batch_dims). elements/rows:
                                          must be 0. */
    scatter_out_of_range out_of_range; /* DEFAULT (= ERROR), ERROR, CLAMP or FILL */
    const void* fill_value;            /* FILL: one element of data's dtype (element_size bytes
                                          for OPAQUE), read during the call; NULL means all-zero
                                          bytes. Ignored by the other policies. */
    uint32_t flags;                    /* none defined yet: must be 0 */
} scatter_gather_options;

#define SCATTER_GATHER_OPTIONS_INIT \
    { (uint32_t)sizeof(scatter_gather_options), 0, 0u, SCATTER_OUT_OF_RANGE_DEFAULT, NULL, 0u }

/*
 * The three gathers share one contract:
 * - `out` has the dtype and element size of `data` and the shape the operation's rule gives;
 *   its strides are free, but it must not overlap `data` or `indices` (gather has no in-place
 *   form) nor itself (a zero stride on a dimension longer than 1). `data` and `indices` may have
 *   zero and negative strides. Empty tensors are valid (nothing is written). Tensors may be
 *   buffer tensors of the context (CPU or Vulkan).
 * - Returns INVALID_ARGUMENT (null context or tensor, null data pointer for a non-empty tensor,
 *   bad struct_size, out_of_range not DEFAULT/ERROR/CLAMP/FILL, axis outside [-r, r), nonzero
 *   axis for nd, batch_dims nonzero for elements/rows or not below rank(data) and rank(indices)
 *   for nd, nonzero flags, out overlapping data, indices or itself), TYPE_MISMATCH (out's dtype
 *   or element size differs from data's, indices not I32/I64), SHAPE_MISMATCH (0-d data, ranks
 *   or shapes that break the rule above, an out rank above SCATTER_MAX_RANK, element counts whose
 *   byte size overflows), INDEX_OUT_OF_RANGE (see the policies above), UNSUPPORTED (a nonzero
 *   trailing options field this version does not know; on Vulkan, what the scatter calls refuse
 *   too: a tensor beyond 2^31 - 1 elements, or beyond what the device's bindings and addresses
 *   reach, indices in a buffer at a byte_offset that is not a multiple of 4), OUT_OF_MEMORY,
 *   DEVICE_LOST, INTERNAL. Vulkan and CPU results are bitwise equal; an AUTO context runs gathers
 *   of host tensors on its CPU backend and gathers of buffer tensors on Vulkan.
 * - On failure `out` is byte-for-byte unchanged: every option, shape and index is checked
 *   before the first byte is written.
 * - Thread rule: any thread, concurrently on one context, as long as no two concurrent calls
 *   write the same memory. The library reads `data`, `indices` and fill_value only during the call.
 */

/** Elements gather (ONNX GatherElements, torch.gather). See the contract above. */
SCATTER_API scatter_status scatter_gather_elements(scatter_context context, const scatter_tensor* data,
                                                   const scatter_tensor* indices,
                                                   const scatter_gather_options* options,
                                                   const scatter_tensor* out);

/** Rows gather (ONNX Gather, torch.index_select, numpy.take). See the contract above. */
SCATTER_API scatter_status scatter_gather_rows(scatter_context context, const scatter_tensor* data,
                                               const scatter_tensor* indices,
                                               const scatter_gather_options* options,
                                               const scatter_tensor* out);

/** N-d gather (ONNX GatherND, tf.gather_nd) with options->batch_dims. options->axis must be 0.
 *  See the contract above. */
SCATTER_API scatter_status scatter_gather_nd(scatter_context context, const scatter_tensor* data,
                                             const scatter_tensor* indices,
                                             const scatter_gather_options* options,
                                             const scatter_tensor* out);

/* ---------------------------------------------------------------------------------------------
 * Message passing: gather, scale and scatter in one pass
 *
 * scatter_message_passing aggregates messages along the edges of a graph (PyG MessagePassing,
 * DGL update_all, torch_scatter.scatter(x[src] * w[:, None], dst)) without materializing the
 * edge x feature tensor. With data and out of shape [M, F...], x of shape [N, F...] (the same
 * trailing dimensions F..., rank r >= 1) and the edge vectors src, dst (and weights) of shape [E]:
 *
 *   out = data;  for e = 0, 1, ..., E-1 in this order:  out[dst[e], ...] (op)= x[src[e], ...] * w[e]
 *
 * and the result is bitwise that of the three calls it fuses, on every backend and thread count:
 *   1. m = scatter_gather_rows(x, src) into [E, F...], with src_out_of_range and fill_value;
 *   2. m[e, ...] = m[e, ...] * w[e] with the arithmetic of SCATTER_REDUCTION_MUL (16-bit floats
 *      compute in f32 and round once; integers wrap; bool: logical and; complex product); without
 *      weights there is no multiply at all;
 *   3. scatter_rows(data, dst, m, out) on axis 0 with reduction, dst_out_of_range and
 *      exclude_self: updates to one row apply in edge order, starting from data's row (or from the
 *      identity, under exclude_self), mean divides once at the end.
 * Extra memory is O(M) (hit counts, for mean and exclude_self) at most; m is never built.
 *
 * Out-of-range policies, one per index vector, as the call each one belongs to:
 *   src  DEFAULT (= ERROR), ERROR, CLAMP (into [0, N-1]; N = 0 is INDEX_OUT_OF_RANGE) or FILL (the
 *        edge's message is fill_value, then scaled by its weight), as scatter_gather_rows.
 *   dst  DEFAULT (= ERROR), ERROR, SKIP (the edge is ignored; a row reached only by skipped edges
 *        keeps data's value, also under exclude_self) or CLAMP (into [0, M-1]; an edge into
 *        M = 0 is skipped), as scatter_rows.
 * Negative indices count from the back. Under ERROR every index of the vector is checked, also
 * that of an edge whose message is empty (F... holds a 0) or whose other index is skipped; src
 * is checked before dst, and the first offending index is named ("src[4] = 9 is outside [-3, 3)
 * on axis 0").
 * ------------------------------------------------------------------------------------------- */

/** Options of one message-passing call. Start from SCATTER_MESSAGE_PASSING_OPTIONS_INIT; NULL
 *  options mean the defaults (add, ERROR for both index vectors, zero fill value, no flags). */
typedef struct scatter_message_passing_options {
    uint32_t struct_size;                  /* sizeof(scatter_message_passing_options) */
    scatter_reduction reduction;           /* DEFAULT means ADD here (the aggregation of graph
                                              networks); every reduction data's dtype allows in
                                              scatter_rows: NONE (the last edge wins), ADD, SUB,
                                              MUL, DIV, MAX, MIN, MEAN */
    scatter_out_of_range src_out_of_range; /* DEFAULT (= ERROR), ERROR, CLAMP or FILL */
    scatter_out_of_range dst_out_of_range; /* DEFAULT (= ERROR), ERROR, SKIP or CLAMP */
    const void* fill_value;                /* src FILL: one element of x's dtype (element_size
                                              bytes for OPAQUE), read during the call; NULL means
                                              all-zero bytes. Ignored by the other policies. */
    uint32_t flags;                        /* SCATTER_OPTION_EXCLUDE_SELF;
                                              SCATTER_OPTION_ALLOW_NONDETERMINISM is accepted and
                                              changes nothing (every path is deterministic) */
} scatter_message_passing_options;

#define SCATTER_MESSAGE_PASSING_OPTIONS_INIT                                                  \
    { (uint32_t)sizeof(scatter_message_passing_options), SCATTER_REDUCTION_DEFAULT,           \
      SCATTER_OUT_OF_RANGE_DEFAULT, SCATTER_OUT_OF_RANGE_DEFAULT, NULL, 0u }

/** Fused message passing, rows form: out[dst[e]] (op)= x[src[e]] * weights[e] over the edges in
 *  order (see the section above for the rule and the three calls it equals bitwise).
 *  - data: [M, F...], rank >= 1, any dtype. out: data's shape, dtype and element size; out may
 *    describe exactly the same memory as data (in place); any other overlap of out with data, x,
 *    src, dst or weights, or an out whose own elements overlap, is INVALID_ARGUMENT.
 *  - x: [N, F...], data's dtype and element size, data's trailing dimensions. x may be data.
 *  - src, dst: rank 1, the same length E >= 0, each I32 or I64 (they may differ).
 *  - weights: NULL (no multiply), or rank 1 of length E and data's dtype; OPAQUE data has no
 *    multiply, so weights with it are UNSUPPORTED.
 *  Every tensor but out may have zero and negative strides; empty tensors are valid (E = 0 copies
 *  data into out).
 *  Returns INVALID_ARGUMENT (null context, data, x, src, dst or out, null data pointer for a
 *  non-empty tensor, bad struct_size, reduction, out_of_range value for its vector (SKIP for
 *  src, FILL for dst) or flags, an out that overlaps, integer DIV by a message that is zero),
 *  TYPE_MISMATCH (x, weights or out with another dtype or element size than data, src or dst not
 *  I32/I64), SHAPE_MISMATCH (0-d data, x or out of another rank than data, x.shape[1:] or
 *  out.shape unlike data's, src/dst/weights not of rank 1 or not all of one length, element
 *  counts whose byte size overflows), INDEX_OUT_OF_RANGE (see the policies above), UNSUPPORTED (a
 *  reduction data's dtype does not allow, weights with OPAQUE data, a nonzero trailing options
 *  field this version does not know; any tensor in a Vulkan buffer: the Vulkan backend does not
 *  run message passing yet), OUT_OF_MEMORY, INTERNAL.
 *  An AUTO context runs calls on host tensors on its CPU backend. On failure out (and data, when
 *  in place) is byte-for-byte unchanged: every option, shape, index and integer divisor is checked
 *  before the first byte is written.
 *  Thread rule: any thread, concurrently on one context, as long as no two concurrent calls write
 *  the same memory. The library reads its inputs and fill_value only during the call. */
SCATTER_API scatter_status scatter_message_passing(scatter_context context, const scatter_tensor* data,
                                                   const scatter_tensor* x, const scatter_tensor* src,
                                                   const scatter_tensor* dst, const scatter_tensor* weights,
                                                   const scatter_message_passing_options* options,
                                                   const scatter_tensor* out);

/* ---------------------------------------------------------------------------------------------
 * Backward kernels: the gradients of the scatters and the gathers
 *
 * Plain calls, no autograd engine: the caller keeps what the forward call read and wrote (its
 * tape) and passes it back with grad_out, the gradient of a loss with respect to the forward's
 * `out`. Each call writes the gradients with respect to the forward's inputs. The rules, one per
 * reduction, are in docs/semantics.md next to the forward rule they differentiate; in short
 * (t a target of data, u an update that reaches t, g = grad_out[t], out = the forward's result):
 *
 *   none   the update that won t (the last in row-major order) gets g; every other update of t
 *          gets 0; grad_data[t] is 0 when t was written, g otherwise.
 *   add    every update of t gets g.       sub   every update of t gets -g.
 *   mean   every update of t, and data[t] unless exclude_self, gets g / n, n the number of terms.
 *   mul    as PyTorch's scatter_reduce "prod": g * out / u for a nonzero u, g times the product
 *          of the other terms for the only zero among the updates of t, 0 for one of several
 *          zeros; data[t] gets g * out / data[t] (nonzero) or g times the updates' product (zero).
 *   div    (out = data / (u1 * u2 * ...)): u gets -(g * out) / u; data[t] gets g / u1 / u2 / ...
 *   max, min  g is split evenly between the terms equal to out[t] (data[t] counts unless
 *          exclude_self; NaN counts as equal to NaN): each gets g / (how many).
 * Under exclude_self, grad_data[t] is 0 at every target an update reached. A target no update
 * reached passes g to grad_data unchanged (exactly g: no rounding). An update the SKIP policy
 * ignored gets +0; CLAMP sends its gradient from the clamped target.
 *
 * Gather's backward is a scatter-add of grad_out into a zero grad_data, in row-major order of
 * indices, so duplicates sum in a fixed order; a FILL'ed position contributes nothing.
 *
 * Dtypes: f16, bf16, f32 and f64 (every step computes in f32, or f64 for f64, and rounds to the
 * dtype after each, as the forward does). Integer, bool, complex and opaque tensors have no
 * gradient here: TYPE_MISMATCH. Results are bitwise identical for any thread count.
 *
 * Backends: the CPU backend runs every backward call. The Vulkan backend runs gather's backward
 * (its own scatter-add, bitwise equal to the CPU) but has no kernels for the scatters' backward
 * yet: those return UNSUPPORTED before writing anything, and an AUTO context runs them on host
 * tensors on its CPU backend.
 * ------------------------------------------------------------------------------------------- */

/*
 * The three scatter backward calls share one contract:
 * - `data`, `indices`, `updates` and `options` are the forward call's (the same axis,
 *   reduction, out-of-range policy and EXCLUDE_SELF flag; ALLOW_NONDETERMINISM changes
 *   nothing here). `data` must hold the values the forward read: after an in-place forward,
 *   pass a copy kept from before it. Only mul, max and min read data's values; only mul, div,
 *   max and min read updates' values; the other rules use their shapes only.
 * - `out` is the forward's result: required (non-NULL) for mul, div, max and min; ignored and
 *   may be NULL for none, add, sub and mean.
 * - `grad_out` has data's shape and dtype; any strides, zero strides (a broadcast gradient)
 *   included.
 * - `grad_data` (data's shape and dtype) and `grad_updates` (updates' shape and dtype) receive
 *   the gradients; either may be NULL (not wanted), not both. They must overlap no input and
 *   not each other nor themselves.
 * - Returns INVALID_ARGUMENT (null context or required tensor, both gradients NULL, bad
 *   struct_size, enum, flag or axis, overlapping gradients), TYPE_MISMATCH (a dtype that is not
 *   f16/bf16/f32/f64, tensors of different dtypes, indices not I32/I64), SHAPE_MISMATCH (shapes
 *   that break the forward's rule, grad_out/out/grad_data not of data's shape, grad_updates not
 *   of updates' shape), INDEX_OUT_OF_RANGE (policy ERROR, as the forward), UNSUPPORTED (the
 *   Vulkan backend, or buffer tensors on an AUTO context), OUT_OF_MEMORY (scratch space: a few
 *   arrays of data's and updates' size), INTERNAL.
 * - On failure grad_data and grad_updates are byte-for-byte unchanged.
 * - Thread rule: any thread, concurrently on one context, as long as no two concurrent calls
 *   write the same memory. Nothing is kept after the call.
 */

/** Backward of scatter_elements. See the contract above. */
SCATTER_API scatter_status scatter_elements_backward(scatter_context context, const scatter_tensor* data,
                                                     const scatter_tensor* indices,
                                                     const scatter_tensor* updates,
                                                     const scatter_tensor* out,
                                                     const scatter_tensor* grad_out,
                                                     const scatter_options* options,
                                                     const scatter_tensor* grad_data,
                                                     const scatter_tensor* grad_updates);

/** Backward of scatter_rows. See the contract above. */
SCATTER_API scatter_status scatter_rows_backward(scatter_context context, const scatter_tensor* data,
                                                 const scatter_tensor* indices,
                                                 const scatter_tensor* updates,
                                                 const scatter_tensor* out,
                                                 const scatter_tensor* grad_out,
                                                 const scatter_options* options,
                                                 const scatter_tensor* grad_data,
                                                 const scatter_tensor* grad_updates);

/** Backward of scatter_nd (options->axis must be 0). See the contract above. */
SCATTER_API scatter_status scatter_nd_backward(scatter_context context, const scatter_tensor* data,
                                               const scatter_tensor* indices,
                                               const scatter_tensor* updates,
                                               const scatter_tensor* out,
                                               const scatter_tensor* grad_out,
                                               const scatter_options* options,
                                               const scatter_tensor* grad_data,
                                               const scatter_tensor* grad_updates);

/*
 * The three gather backward calls share one contract:
 * - `indices` and `options` are the forward gather's (axis, batch_dims, out_of_range; the fill
 *   value is not read). `grad_out` has the forward's out shape (any strides, zero included).
 *   `grad_data` has the forward data's shape and receives sum over the positions p that read
 *   data[t] of grad_out[p], summed in row-major order of p from +0 (a target nothing read gets
 *   +0). The forward's data is not needed: grad_data carries its shape.
 * - grad_data must not overlap indices, grad_out or itself.
 * - Returns INVALID_ARGUMENT (null context or tensor, bad struct_size, policy, axis,
 *   batch_dims or flags, as the forward gather; overlapping grad_data), TYPE_MISMATCH
 *   (grad_data and grad_out dtypes differ or are not f16/bf16/f32/f64, indices not I32/I64),
 *   SHAPE_MISMATCH (as the forward, with grad_data for data and grad_out for out),
 *   INDEX_OUT_OF_RANGE (as the forward: ERROR, and CLAMP into a dimension of size 0),
 *   UNSUPPORTED (on Vulkan, indices in a buffer with batch_dims > 0, or under CLAMP with an
 *   empty grad_data: those read the indices on the host; and what the Vulkan scatter refuses),
 *   OUT_OF_MEMORY, INTERNAL. CPU and Vulkan (host or buffer tensors) results are bitwise equal;
 *   an AUTO context runs host tensors on its CPU backend, buffers on Vulkan.
 * - On failure grad_data is byte-for-byte unchanged. Thread rule as for the scatter calls.
 */

/** Backward of scatter_gather_elements (torch.gather's backward). See the contract above. */
SCATTER_API scatter_status scatter_gather_elements_backward(scatter_context context,
                                                            const scatter_tensor* indices,
                                                            const scatter_tensor* grad_out,
                                                            const scatter_gather_options* options,
                                                            const scatter_tensor* grad_data);

/** Backward of scatter_gather_rows (index_select's backward, an index_add). See above. */
SCATTER_API scatter_status scatter_gather_rows_backward(scatter_context context,
                                                        const scatter_tensor* indices,
                                                        const scatter_tensor* grad_out,
                                                        const scatter_gather_options* options,
                                                        const scatter_tensor* grad_data);

/** Backward of scatter_gather_nd, batch_dims included. See the contract above. */
SCATTER_API scatter_status scatter_gather_nd_backward(scatter_context context,
                                                      const scatter_tensor* indices,
                                                      const scatter_tensor* grad_out,
                                                      const scatter_gather_options* options,
                                                      const scatter_tensor* grad_data);

/* ---------------------------------------------------------------------------------------------
 * Profiling
 *
 * With SCATTER_CONTEXT_FLAG_PROFILE, each scatter_elements / scatter_rows / scatter_nd,
 * scatter_gather_* and scatter_message_passing call on the context times its host-side stages
 * and, on Vulkan, each GPU pass
 * (timestamp queries around every dispatch, fill and copy of its command buffer). scatter_last_profile then returns the
 * profile of the last such call made on the calling thread. Without the flag nothing is timed
 * and nothing costs anything. Batches and recordings are not profiled.
 * ------------------------------------------------------------------------------------------- */

#define SCATTER_PROFILE_MAX_PASSES 32

/** One pass of an operation: a GPU dispatch, fill or copy (or, on the CPU backend, the whole
 *  kernel). */
typedef struct scatter_profile_pass {
    char name[32];          /* e.g. "validate_elements", "copy", "winner", "atomic_apply" */
    uint64_t invocations;   /* shader invocations launched; 0 for fills, copies and the CPU */
    double time_us;         /* GPU time between this pass's timestamps (Vulkan), or wall time (CPU) */
} scatter_profile_pass;

/** The profile of one operation. Times are microseconds of wall-clock time on the calling thread
 *  unless said otherwise; a stage a backend does not have is 0. */
typedef struct scatter_profile {
    uint32_t struct_size;    /* set by the caller to sizeof(scatter_profile) */
    scatter_backend backend; /* the backend that ran the operation (CPU or VULKAN) */
    scatter_status status;   /* what the call returned */
    uint32_t pass_count;     /* entries of passes[] filled (at most SCATTER_PROFILE_MAX_PASSES;
                                later passes are summed into the last) */
    double validate_us;      /* checking descriptors, shapes and options on the host */
    double record_us;        /* Vulkan: staging host inputs and recording the command buffer */
    double submit_us;        /* Vulkan: vkQueueSubmit */
    double wait_us;          /* Vulkan: waiting for the GPU to finish */
    double read_back_us;     /* Vulkan: result checks and copying host outputs back */
    double total_us;         /* the whole call */
    double gpu_us;           /* Vulkan: first to last timestamp; 0 where the queue has none */
    char route[96];          /* why this backend ran the call (AUTO contexts), else empty */
    scatter_profile_pass passes[SCATTER_PROFILE_MAX_PASSES];
} scatter_profile;

/** Copies the profile of the last operation this thread ran on `context` into *out (up to
 *  out->struct_size bytes, which must be at least the size of this first version).
 *  Returns INVALID_ARGUMENT for a null argument or bad struct_size, for a context created
 *  without SCATTER_CONTEXT_FLAG_PROFILE, and when this thread has run no operation on the
 *  context since its last profile was taken by another context's call (each thread keeps one
 *  profile: its last profiled call). Thread-safe. */
SCATTER_API scatter_status scatter_last_profile(scatter_context context, scatter_profile* out);

/* =============================================================================================
 * Vulkan: batches, engine interop and the pipeline cache.
 *
 * These functions work on Vulkan contexts; on any other context they return
 * SCATTER_ERROR_UNSUPPORTED (and SCATTER_ERROR_BACKEND_UNAVAILABLE where a build has no Vulkan
 * backend). Vulkan objects cross this header as opaque values so that it needs no Vulkan include:
 * dispatchable handles (VkInstance, VkPhysicalDevice, VkDevice, VkQueue, VkCommandBuffer) as
 * void*, non-dispatchable ones (VkBuffer) as uint64_t.
 * ============================================================================================= */

/** The operations, for the functions below that take the operation as a value. */
typedef enum scatter_op {
    SCATTER_OP_UNDEFINED = 0, /* invalid */
    SCATTER_OP_ELEMENTS = 1,  /* as scatter_elements */
    SCATTER_OP_ROWS = 2,      /* as scatter_rows */
    SCATTER_OP_ND = 3,        /* as scatter_nd */
    SCATTER_OP_FORCE32_ = 0x7fffffff
} scatter_op;

/* ---- Batches: record several operations, submit them once, wait for all of them. ---- */

typedef struct scatter_batch_t* scatter_batch;

/** Creates an empty batch on a Vulkan context. *out_batch is written only on success; destroy
 *  it with scatter_batch_destroy (before or after the context). Returns INVALID_ARGUMENT (null argument),
 *  UNSUPPORTED (not a Vulkan context), OUT_OF_MEMORY, DEVICE_LOST. A batch is used by one thread
 *  at a time; several batches of one context may be used from different threads. */
SCATTER_API scatter_status scatter_batch_create(scatter_context context, scatter_batch* out_batch);

/** Records one operation into the batch; nothing runs before scatter_batch_submit. Operations
 *  run in the order they were recorded, each seeing the results of the ones before it.
 *  The tensors follow the rules of the immediate calls, and: `out` must be a buffer tensor (the
 *  batch ends after this call returns); data, indices and updates may be host tensors, whose
 *  bytes are copied now. Every check that needs no index or update value happens here and
 *  returns the same statuses as scatter_elements/rows/nd; index and integer-divisor checks run
 *  on the device and are reported by scatter_batch_wait. Also returns INVALID_ARGUMENT for a
 *  batch already submitted or an unknown `op`. */
SCATTER_API scatter_status scatter_batch_record(scatter_batch batch, scatter_op op,
                                                const scatter_tensor* data,
                                                const scatter_tensor* indices,
                                                const scatter_tensor* updates,
                                                const scatter_options* options,
                                                const scatter_tensor* out);

/** Submits every recorded operation in one queue submission and returns without waiting.
 *  Returns INVALID_ARGUMENT (null batch, already submitted), DEVICE_LOST. After this call the
 *  buffers the batch uses must not be read, written or destroyed until scatter_batch_wait. */
SCATTER_API scatter_status scatter_batch_submit(scatter_batch batch);

/** Waits until a submitted batch has finished. Returns SCATTER_OK when every operation
 *  succeeded; otherwise the status of the first operation (in recording order) that failed, with
 *  a message naming its position in the batch ("batch operation 2: indices[3] = 9 is outside
 *  ..."). A failed operation leaves its `out` byte-for-byte unchanged; the other operations
 *  still run (ones recorded after it see its unchanged `out`). Returns INVALID_ARGUMENT for a
 *  batch that was not submitted, DEVICE_LOST. Waiting again returns the same result. */
SCATTER_API scatter_status scatter_batch_wait(scatter_batch batch);

/** Destroys a batch, first waiting for it if it was submitted. NULL is ignored. */
SCATTER_API void scatter_batch_destroy(scatter_batch batch);

/* ---- Engine interop: the application's own Vulkan device and command buffers. ---- */

/** A Vulkan function pointer and vkGetInstanceProcAddr, without Vulkan types. */
typedef void (*scatter_vk_void_function)(void);
typedef scatter_vk_void_function (*scatter_vk_get_instance_proc_addr)(void* instance, const char* name);

/** Describes the Vulkan device a context runs on. Start from SCATTER_VULKAN_DEVICE_DESC_INIT.
 *  With `device` NULL the context creates its own instance and device exactly as
 *  scatter_context_create does (then only the pipeline-cache fields are used). */
typedef struct scatter_vulkan_device_desc {
    uint32_t struct_size;           /* sizeof(scatter_vulkan_device_desc) */
    void* instance;                 /* VkInstance (Vulkan 1.1+) */
    void* physical_device;          /* VkPhysicalDevice of that instance */
    void* device;                   /* VkDevice created on it, or NULL (see above) */
    void* queue;                    /* VkQueue of the device with compute support, or NULL: then
                                       only scatter_record_vulkan works (nothing is submitted) */
    uint32_t queue_family_index;    /* the queue's family */
    scatter_vk_get_instance_proc_addr get_instance_proc_addr; /* the application's
                                       vkGetInstanceProcAddr */
    uint64_t enabled_features;      /* what the application enabled on its device, as
                                       SCATTER_FEATURE_* bits: INT64 (shaderInt64), FLOAT64
                                       (shaderFloat64), INT64_ATOMICS (shaderBufferInt64Atomics),
                                       STORAGE8 (storageBuffer8BitAccess), STORAGE16
                                       (storageBuffer16BitAccess), FLOAT32_ATOMIC_ADD
                                       (VK_EXT_shader_atomic_float with
                                       shaderBufferFloat32AtomicAdd), BUFFER_DEVICE_ADDRESS
                                       (bufferDeviceAddress: the context's own allocations
                                       then carry SHADER_DEVICE_ADDRESS usage; buffers wrapped
                                       with scatter_buffer_wrap_vulkan are never reached by
                                       address); other bits are ignored.
                                       Subgroup operations need no enabling and are used when
                                       the device reports them. */
    const void* pipeline_cache_data; /* optional blob from scatter_pipeline_cache_data */
    size_t pipeline_cache_size;
} scatter_vulkan_device_desc;

#define SCATTER_VULKAN_DEVICE_DESC_INIT \
    { (uint32_t)sizeof(scatter_vulkan_device_desc), NULL, NULL, NULL, NULL, 0u, NULL, 0u, NULL, 0u }

/** Creates a Vulkan context on the application's device (or on its own device, with an initial
 *  pipeline cache). desc may be NULL for the defaults; its backend must be AUTO or VULKAN, and
 *  with an application device its device_index and VALIDATION flag are ignored. The context
 *  never takes ownership: the application keeps the instance, device and queue alive until the
 *  context is destroyed and, when it gave a queue, does not use that queue concurrently with
 *  libscatter calls on this context that submit work (operations, batches, and reads/writes of
 *  buffers the CPU cannot map). A pipeline-cache blob from another device or driver is ignored.
 *  Returns INVALID_ARGUMENT (null out_context or device fields, bad struct_size), UNSUPPORTED
 *  (a nonzero field unknown to this version), BACKEND_UNAVAILABLE (no Vulkan, or a device below
 *  Vulkan 1.1 or without a compute queue), OUT_OF_MEMORY, INTERNAL. */
SCATTER_API scatter_status scatter_context_create_vulkan(const scatter_context_desc* desc,
                                                         const scatter_vulkan_device_desc* device,
                                                         scatter_context* out_context);

/** Wraps `size` bytes of an application VkBuffer, starting at `offset`, as a scatter buffer of
 *  a Vulkan context (not owned: scatter_buffer_destroy releases only the wrapper). The VkBuffer
 *  must belong to the context's device, have VK_BUFFER_USAGE_STORAGE_BUFFER_BIT (and
 *  TRANSFER_SRC/TRANSFER_DST for scatter_buffer_read/write, which go through staging copies),
 *  bound memory, and outlive the wrapper. Returns INVALID_ARGUMENT (null argument, zero
 *  vk_buffer), UNSUPPORTED (not a Vulkan context), OUT_OF_MEMORY. */
SCATTER_API scatter_status scatter_buffer_wrap_vulkan(scatter_context context, uint64_t vk_buffer,
                                                      uint64_t offset, uint64_t size,
                                                      scatter_buffer* out_buffer);

typedef struct scatter_recording_t* scatter_recording;

/** Records one operation into the application's VkCommandBuffer (in the recording state, from
 *  a pool of the context's queue family) without submitting it. Tensors as for
 *  scatter_batch_record (`out` a buffer tensor; host inputs are copied now). *out_recording
 *  owns the operation's transient memory: keep it until the command buffer has finished
 *  executing, then call scatter_recording_result and scatter_recording_destroy.
 *  Barriers the application must add (libscatter records the ones between its own passes):
 *  - before: make earlier writes to the op's buffers visible to the compute stage, e.g.
 *    vkCmdPipelineBarrier(src = the writers' stage and access, dst =
 *    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
 *    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
 *  - after: libscatter ends with a barrier from its compute writes to COMPUTE_SHADER, TRANSFER
 *    and HOST reads; for any other consumer (vertex input, fragment shader, another queue) add
 *    vkCmdPipelineBarrier(src = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT + VK_ACCESS_SHADER_WRITE_BIT,
 *    dst = the consumer's stage and access).
 *  The recording uses push constants, a descriptor set and the compute pipeline binding of the
 *  command buffer: re-bind yours afterwards. Returns the statuses of scatter_batch_record. */
SCATTER_API scatter_status scatter_record_vulkan(scatter_context context, void* command_buffer,
                                                 scatter_op op, const scatter_tensor* data,
                                                 const scatter_tensor* indices,
                                                 const scatter_tensor* updates,
                                                 const scatter_options* options,
                                                 const scatter_tensor* out,
                                                 scatter_recording* out_recording);

/** The result of a recorded operation, once its command buffer has finished executing:
 *  SCATTER_OK, or INDEX_OUT_OF_RANGE / INVALID_ARGUMENT (integer division by zero) with the
 *  message, in which case `out` was left unchanged. Returns INVALID_ARGUMENT for NULL. Calling
 *  it before the command buffer finished gives an undefined answer. */
SCATTER_API scatter_status scatter_recording_result(scatter_recording recording);

/** Releases a recording's transient memory. NULL is ignored. The command buffer must have
 *  finished executing (or never be submitted). */
SCATTER_API void scatter_recording_destroy(scatter_recording recording);

/** Copies the context's Vulkan pipeline cache (compiled shaders of every pipeline created so
 *  far) for scatter_vulkan_device_desc.pipeline_cache_data on a later run. With data NULL,
 *  writes the blob's size to *size; otherwise *size is data's capacity and receives the number
 *  of bytes written. Returns INVALID_ARGUMENT (null context or size, a capacity smaller than the
 *  blob: nothing is written), UNSUPPORTED (not a Vulkan context). Thread-safe. */
SCATTER_API scatter_status scatter_pipeline_cache_data(scatter_context context, void* data,
                                                       size_t* size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SCATTER_SCATTER_H */
