// Type declarations of libscatter for Node.js. See README.md for the rules in prose.

/** The TypedArrays that hold a libscatter dtype without naming one. */
export type ScatterTypedArray =
  | Float32Array | Float64Array
  | Int8Array | Int16Array | Int32Array | BigInt64Array
  | Uint8Array | Uint16Array | Uint32Array | BigUint64Array;

/** Names of the dtypes the binding passes: a TypedArray's own, or one named with `dtype`. */
export type DtypeName =
  | 'f16' | 'bf16' | 'f32' | 'f64'
  | 'i8' | 'i16' | 'i32' | 'i64'
  | 'u8' | 'u16' | 'u32' | 'u64'
  | 'bool';

/** A shape or stride entry: a safe integer Number or a BigInt. */
export type Extent = number | bigint;

/**
 * A tensor over a TypedArray's memory (never copied). The memory must be a fixed-length
 * ArrayBuffer: an array over a SharedArrayBuffer, a resizable ArrayBuffer or a detached one is
 * refused with a TypeError. Each field is read once, before any check.
 *
 * Without `strides` the tensor is the whole array, contiguous row-major: the product of `shape`
 * must equal `data.length`. With `strides` (in elements, possibly negative or, for tensors that
 * are only read, zero) element [i0, ..., ik] is `data[offset + i0*strides[0] + ... + ik*strides[k]]`,
 * and every element must lie inside `data`.
 */
export interface TensorObject<T extends ArrayBufferView = ScatterTypedArray> {
  /** The memory; a subarray is a view (its byteOffset is honoured). */
  data: T;
  /** The dimensions; defaults to `[data.length]`. At most MAX_RANK entries. */
  shape?: readonly Extent[];
  /** Element strides, one per dimension; omitted for contiguous row-major. */
  strides?: readonly Extent[] | null;
  /** With strides: the index in `data` of element [0, ..., 0] (default 0). */
  offset?: Extent;
  /**
   * A dtype other than the array's own: 'bool' for a Uint8Array (0 false, anything else true),
   * 'f16' or 'bf16' for a Uint16Array of bit patterns.
   */
  dtype?: DtypeName;
}

/** data, updates or out: a bare TypedArray (1-D) or a tensor object. */
export type Tensor<T extends ArrayBufferView = ScatterTypedArray> = T | TensorObject<T>;

/** A nested array of integers (Numbers that are safe integers, or int64 BigInts). */
export type NestedIntegers = number | bigint | readonly NestedIntegers[];

/**
 * Indices: an Int32Array or BigInt64Array (bare or as a tensor object), or plain integers: a
 * scalar (rank 0), a (nested, rectangular) array, or `{data: array, shape}`. Plain integers
 * become a new BigInt64Array; each must be a safe integer Number or an int64 BigInt.
 */
export type Indices =
  | Int32Array | BigInt64Array
  | TensorObject<Int32Array | BigInt64Array>
  | NestedIntegers
  | { data: NestedIntegers[]; shape?: readonly Extent[] };

/** A result when data was a tensor object: a new contiguous tensor of data's shape. */
export interface ResultTensor<T extends ArrayBufferView = ScatterTypedArray> {
  data: T;
  shape: number[];
  /** Present when data named its dtype. */
  dtype?: DtypeName;
}

export type Reduction =
  | 'none' | 'add' | 'sub' | 'mul' | 'div' | 'max' | 'min' | 'mean'
  | 'sum' | 'prod' | 'multiply' | 'amax' | 'amin';

export type OutOfRange = 'error' | 'skip' | 'clamp';

export type Backend = 'auto' | 'cpu' | 'vulkan';

/** The options of an operation; each is read once, before any check. */
export interface ScatterOptions<O = unknown> {
  /** elements/rows: the dimension the indices address, in [-rank, rank). nd: must be 0. Default 0. */
  axis?: number | bigint;
  /**
   * How an update combines with its target. 'none' assigns (the last update in row-major order
   * wins); 'add', 'sub', 'mul', 'div' (integers truncate; a zero divisor is an error), 'max',
   * 'min' (NaN propagates), 'mean' ((self + sum) / (1 + count); integers floor). PyTorch's and
   * ONNX's names 'sum', 'prod', 'multiply', 'amax', 'amin' too. Integer arithmetic wraps.
   * Default 'none'.
   */
  reduction?: Reduction;
  /** Targets that receive updates start from the reduction's identity instead of data. */
  excludeSelf?: boolean;
  /** An index outside [-s, s) fails the call (nothing written), is skipped, or is clamped. Default 'error'. */
  outOfRange?: OutOfRange;
  /**
   * Where the result goes: a tensor of data's shape and dtype (a bare TypedArray is taken with
   * data's shape). `out: data` (the same object) runs in place. Returned as given.
   */
  out?: O;
  /** The context to run on; default: a shared context of `backend`. */
  context?: Context;
  /** The shared context's backend when no context is given. Default 'auto'. */
  backend?: Backend;
}

/** The return of an operation: out when given, else a new tensor of data's form. */
type ScatterResult<D, O> =
  unknown extends O
    ? D extends TensorObject<infer T> ? ResultTensor<T> : D
    : O;

/**
 * Scatters element by element (ONNX ScatterElements, torch.scatter_reduce): updates[p] goes to
 * the element of data at p with p[axis] replaced by indices[p]. data, indices and updates have
 * one rank; indices and updates one shape, at most data's extent off the axis.
 * @returns `out` when given, else a new tensor of data's form (a TypedArray for a TypedArray,
 *   `{data, shape}` for a tensor object), shape and dtype.
 * @throws {ScatterError} A subclass per status; `out` (and data, in place) is unchanged then.
 * @throws {TypeError} An argument of the wrong kind (not a TypedArray, not an integer, an array
 *   over a SharedArrayBuffer or a resizable or detached ArrayBuffer, ...).
 */
export function elements<D extends Tensor, O = unknown>(
  data: D, indices: Indices, updates: Tensor, options?: ScatterOptions<O>): ScatterResult<D, O>;

/**
 * Scatters whole slices along an axis (torch.index_add_/index_copy_, Paddle scatter): slice p of
 * updates goes to slice indices[p] of data on `axis`. indices have any rank q >= 0;
 * updates.shape = data.shape[:axis] + indices.shape + data.shape[axis+1:].
 */
export function rows<D extends Tensor, O = unknown>(
  data: D, indices: Indices, updates: Tensor, options?: ScatterOptions<O>): ScatterResult<D, O>;

/**
 * Scatters slices addressed by index tuples (ONNX ScatterND, tf.tensor_scatter_nd_*):
 * indices.shape = batch + [k] with 1 <= k <= rank(data); the slice of data at indices[b]
 * receives updates[b]; updates.shape = batch + data.shape[k:]. axis must be 0.
 */
export function nd<D extends Tensor, O = unknown>(
  data: D, indices: Indices, updates: Tensor, options?: ScatterOptions<O>): ScatterResult<D, O>;

/** One device a context can run on. */
export interface Device {
  /** The `device` to pass to Context (Vulkan devices; 0 for the CPU). */
  index: number;
  backend: 'cpu' | 'vulkan';
  type: 'cpu' | 'integrated_gpu' | 'discrete_gpu' | 'virtual_gpu' | 'other';
  /** The driver's name of the device. */
  name: string;
  /** PCI ids (0 for the CPU). */
  vendorId: number;
  deviceId: number;
  /** The Vulkan API version, e.g. '1.3.255'; '' for the CPU. */
  apiVersion: string;
  /** CPU: hardware threads; Vulkan: subgroup size. */
  threadCount: number;
  /** Optional features the shaders use: 'int64', 'float64', 'subgroups', ... */
  features: string[];
  /** The largest single buffer binding in bytes (2**64 - 1 for the CPU). */
  maxBufferRange: bigint;
}

/** The devices libscatter can use: the CPU first, then every Vulkan device in driver order. */
export function devices(): Device[];

export interface ContextOptions {
  /**
   * Where operations run. 'auto' takes a usable GPU (discrete, integrated or virtual; never a
   * CPU-type Vulkan device such as lavapipe) and routes each call by a cost model. Default 'auto'.
   */
  backend?: Backend;
  /** CPU threads in all, the calling thread's included (0: one per hardware thread). Default 0. */
  threads?: number | bigint;
  /** Vulkan device index from devices() (-1: chosen automatically). Default -1. */
  device?: number | bigint;
  /** false allows faster paths whose float results may depend on the order of duplicates. Default true. */
  deterministic?: boolean;
}

/** A libscatter context: a backend with its device, threads and caches. */
export class Context {
  /**
   * @throws {BackendUnavailableError} The backend or device asked for is not there.
   * @throws {InvalidArgumentError} A value out of range or an unknown backend.
   */
  constructor(options?: ContextOptions);
  /** The backend the context runs on: 'cpu' or 'vulkan' (never 'auto'). */
  readonly backend: 'cpu' | 'vulkan';
  /** Whether close() was called. */
  readonly closed: boolean;
  /** The C handle (scatter_context); throws InvalidArgumentError once closed. */
  readonly handle: bigint;
  /**
   * Destroys the context; later use throws InvalidArgumentError. Closing twice is fine. Where the
   * runtime has `Symbol.dispose`, `[Symbol.dispose]()` is close() too (for `using`).
   */
  close(): void;
}

/** The loaded library's version, e.g. '0.1.0'. */
export const version: string;
/** The library that was loaded: a path, or the bare system name the loader searched for. */
export const libraryPath: string;
/** SCATTER_MAX_RANK: the largest rank of any tensor (16). */
export const MAX_RANK: number;
/** scatter_dtype values by name. */
export const DTYPES: Readonly<Record<DtypeName, number>>;
/** scatter_reduction values by name. */
export const REDUCTIONS: Readonly<Record<'none' | 'add' | 'sub' | 'mul' | 'div' | 'max' | 'min' | 'mean', number>>;
/** The other names of reductions: sum, prod, multiply, amax, amin. */
export const REDUCTION_ALIASES: Readonly<Record<'sum' | 'prod' | 'multiply' | 'amax' | 'amin', string>>;
/** scatter_out_of_range values by name. */
export const OUT_OF_RANGE: Readonly<Record<OutOfRange, number>>;
/** scatter_backend values by name. */
export const BACKENDS: Readonly<Record<Backend, number>>;

/**
 * A libscatter call failed, or the binding refused an argument before calling it. `message` is
 * one sentence naming the offending value.
 */
export class ScatterError extends Error {
  /** The C status name, e.g. 'SCATTER_ERROR_INDEX_OUT_OF_RANGE'. */
  readonly status: string;
  /** The same as `status` (Node's convention for a machine-readable error name). */
  readonly code: string;
  /** The status name of the class. */
  static readonly status: string;
}
/** Null pointer, bad enum, bad axis, bad option, overlapping out, integer division by zero, a closed context. */
export class InvalidArgumentError extends ScatterError {}
/** The dtypes of the tensors do not fit together (or an array holds no libscatter dtype). */
export class TypeMismatchError extends ScatterError {}
/** Shapes or ranks do not fit together, or a tensor does not fit its array. */
export class ShapeMismatchError extends ScatterError {}
/** An index is outside its dimension (outOfRange 'error'). */
export class IndexOutOfRangeError extends ScatterError {}
/** The combination is valid but not supported (a dtype/reduction pair, a device feature). */
export class UnsupportedError extends ScatterError {}
/** Host or device memory could not be allocated. */
export class OutOfMemoryError extends ScatterError {}
/** The requested backend or device is not present. */
export class BackendUnavailableError extends ScatterError {}
/** The device was lost. */
export class DeviceLostError extends ScatterError {}
/** An internal error of the library; please report it. */
export class InternalError extends ScatterError {}
