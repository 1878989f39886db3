// The safe wrapper: the three operations over managed memory, pinned for the duration of the
// call (no copies). Each operation comes in four forms: arrays with their row-major shapes,
// 1-D arrays (no shapes), and the same two over Span<T> / ReadOnlySpan<T> writing into a
// caller's Span<T>.
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace LibScatter
{
    /// <summary>Options of one operation. default(ScatterOptions) is axis 0, reduction none,
    /// out-of-range error, self included.</summary>
    public struct ScatterOptions
    {
        /// <summary>elements/rows: in [-r, r), negative counts from the back. nd: must be 0.</summary>
        public int Axis;
        public Reduction Reduction;
        /// <summary>A target hit by at least one update starts from the reduction's identity
        /// (PyTorch include_self=False).</summary>
        public bool ExcludeSelf;
        public OutOfRange OutOfRange;
        /// <summary>This call may use order-dependent faster paths.</summary>
        public bool AllowNondeterminism;

        public ScatterOptions(Reduction reduction, int axis = 0, bool excludeSelf = false,
                              OutOfRange outOfRange = OutOfRange.Error)
        {
            Axis = axis;
            Reduction = reduction;
            ExcludeSelf = excludeSelf;
            OutOfRange = outOfRange;
            AllowNondeterminism = false;
        }

        internal Native.Options ToNative()
        {
            Native.Options options = Native.OptionsInit();
            options.Axis = Axis;
            options.Reduction = Reduction;
            options.OutOfRange = OutOfRange;
            options.Flags = (ExcludeSelf ? Native.OptionExcludeSelf : 0u) |
                            (AllowNondeterminism ? Native.OptionAllowNondeterminism : 0u);
            return options;
        }
    }

    /// <summary>The three scatter operations over managed memory. Element types: float, double,
    /// sbyte, short, int, long, byte, ushort, uint, ulong, bool, System.Numerics.Complex (c128),
    /// System.Half where the runtime has it (f16), enums (as their underlying type), and any
    /// other struct without references as an opaque element (reduction none only). Index types:
    /// int, long. Every array or span is a contiguous row-major tensor whose length must equal its
    /// shape's product; the 1-D forms take the length as the shape (and, for Nd, indices as
    /// [n, 1]). Argument errors throw ScatterArgumentException (an ArgumentException), other
    /// failures ScatterException; either way the output is unchanged.</summary>
    public static class Scatter
    {
        private static readonly object SharedLock = new object();
        private static ScatterContext shared;

        /// <summary>The reduction named `name`: none, add, sub, mul, div, max, min, mean, or the
        /// PyTorch (sum, prod, amax, amin) and ONNX (multiply) names, aliases of add, mul, max,
        /// min. Throws ScatterArgumentException (InvalidArgument) for any other name.</summary>
        public static Reduction ParseReduction(string name)
        {
            switch (name)
            {
                case "none": return Reduction.None;
                case "add": case "sum": return Reduction.Add;
                case "sub": return Reduction.Sub;
                case "mul": case "prod": case "multiply": return Reduction.Mul;
                case "div": return Reduction.Div;
                case "max": case "amax": return Reduction.Max;
                case "min": case "amin": return Reduction.Min;
                case "mean": return Reduction.Mean;
                default:
                    throw ScatterException.Binding(Status.InvalidArgument,
                                                   "reduction \"" + name + "\" is not one of none, add, sub, mul, div, " +
                                                   "max, min, mean (or sum, prod, multiply, amax, amin)", "name");
            }
        }

        /// <summary>The loaded library's version string, e.g. "0.1.0". Loads the library.</summary>
        public static string LibraryVersion
        {
            get
            {
                ScatterLibrary.Load();
                return VersionString();
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static string VersionString()
        {
            return Native.Utf8(Native.scatter_version_string());
        }

        /// <summary>The devices: entry 0 is always the CPU, then every Vulkan device in driver
        /// order (none where Vulkan is absent). Loads the library.</summary>
        public static Device[] Devices()
        {
            ScatterLibrary.Load();
            return Device.List();
        }

        /// <summary>The context used when a call passes none: Backend.Auto, created on first use
        /// and kept for the life of the process.</summary>
        public static ScatterContext SharedContext
        {
            get
            {
                lock (SharedLock)
                {
                    if (shared == null) shared = new ScatterContext();
                    return shared;
                }
            }
        }

        // ---- Elements ----

        /// <summary>ONNX ScatterElements / PyTorch scatter_reduce_: the update at position p goes
        /// to p with p[axis] = indices[p]. indices and updates have the same shape.</summary>
        /// <returns>output, or a new array when output is null; output may be data (in place).</returns>
        public static T[] Elements<T, TIndex>(T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                              T[] updates, long[] updatesShape,
                                              ScatterOptions options = default(ScatterOptions),
                                              ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return RunArrays(Op.Elements, data, dataShape, indices, indicesShape, updates, updatesShape, options, context, output);
        }

        /// <summary>Elements on 1-D data: indices and updates are 1-D of one length.</summary>
        /// <returns>output, or a new array when output is null; output may be data (in place).</returns>
        public static T[] Elements<T, TIndex>(T[] data, TIndex[] indices, T[] updates,
                                              ScatterOptions options = default(ScatterOptions),
                                              ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return RunArrays1D(Op.Elements, data, indices, updates, options, context, output);
        }

        /// <summary>Elements over spans, written into output (which may be the memory of data:
        /// in place).</summary>
        public static void Elements<T, TIndex>(ReadOnlySpan<T> data, ReadOnlySpan<long> dataShape,
                                               ReadOnlySpan<TIndex> indices, ReadOnlySpan<long> indicesShape,
                                               ReadOnlySpan<T> updates, ReadOnlySpan<long> updatesShape, Span<T> output,
                                               ScatterOptions options = default(ScatterOptions),
                                               ScatterContext context = null)
            where T : struct where TIndex : struct
        {
            Run(Op.Elements, data, dataShape, indices, indicesShape, updates, updatesShape, output, options, context);
        }

        /// <summary>Elements over 1-D spans, written into output (which may be data's memory).</summary>
        public static void Elements<T, TIndex>(ReadOnlySpan<T> data, ReadOnlySpan<TIndex> indices,
                                               ReadOnlySpan<T> updates, Span<T> output,
                                               ScatterOptions options = default(ScatterOptions),
                                               ScatterContext context = null)
            where T : struct where TIndex : struct
        {
            Run1D(Op.Elements, data, indices, updates, output, options, context);
        }

        // ---- Rows ----

        /// <summary>MindSpore scatter_*, Paddle scatter, PyTorch index_add_: the slice of updates at
        /// index position p goes to the slice of data at indices[p] on the axis;
        /// updates.shape = data.shape[:axis] + indices.shape + data.shape[axis+1:].</summary>
        /// <returns>output, or a new array when output is null; output may be data (in place).</returns>
        public static T[] Rows<T, TIndex>(T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                          T[] updates, long[] updatesShape,
                                          ScatterOptions options = default(ScatterOptions),
                                          ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return RunArrays(Op.Rows, data, dataShape, indices, indicesShape, updates, updatesShape, options, context, output);
        }

        /// <summary>Rows on 1-D data: indices and updates are 1-D of one length.</summary>
        public static T[] Rows<T, TIndex>(T[] data, TIndex[] indices, T[] updates,
                                          ScatterOptions options = default(ScatterOptions),
                                          ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return RunArrays1D(Op.Rows, data, indices, updates, options, context, output);
        }

        /// <summary>Rows over spans, written into output (which may be data's memory).</summary>
        public static void Rows<T, TIndex>(ReadOnlySpan<T> data, ReadOnlySpan<long> dataShape,
                                           ReadOnlySpan<TIndex> indices, ReadOnlySpan<long> indicesShape,
                                           ReadOnlySpan<T> updates, ReadOnlySpan<long> updatesShape, Span<T> output,
                                           ScatterOptions options = default(ScatterOptions),
                                           ScatterContext context = null)
            where T : struct where TIndex : struct
        {
            Run(Op.Rows, data, dataShape, indices, indicesShape, updates, updatesShape, output, options, context);
        }

        /// <summary>Rows over 1-D spans, written into output (which may be data's memory).</summary>
        public static void Rows<T, TIndex>(ReadOnlySpan<T> data, ReadOnlySpan<TIndex> indices,
                                           ReadOnlySpan<T> updates, Span<T> output,
                                           ScatterOptions options = default(ScatterOptions),
                                           ScatterContext context = null)
            where T : struct where TIndex : struct
        {
            Run1D(Op.Rows, data, indices, updates, output, options, context);
        }

        // ---- Nd ----

        /// <summary>ONNX ScatterND, TensorFlow tensor_scatter_nd_*: indices.shape = [..., k],
        /// updates.shape = indices.shape[:-1] + data.shape[k:]. options.Axis must be 0.</summary>
        /// <returns>output, or a new array when output is null; output may be data (in place).</returns>
        public static T[] Nd<T, TIndex>(T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                        T[] updates, long[] updatesShape,
                                        ScatterOptions options = default(ScatterOptions),
                                        ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return RunArrays(Op.Nd, data, dataShape, indices, indicesShape, updates, updatesShape, options, context, output);
        }

        /// <summary>Nd on 1-D data: n indices (as shape [n, 1]) and n updates.</summary>
        public static T[] Nd<T, TIndex>(T[] data, TIndex[] indices, T[] updates,
                                        ScatterOptions options = default(ScatterOptions),
                                        ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return RunArrays1D(Op.Nd, data, indices, updates, options, context, output);
        }

        /// <summary>Nd over spans, written into output (which may be data's memory).</summary>
        public static void Nd<T, TIndex>(ReadOnlySpan<T> data, ReadOnlySpan<long> dataShape,
                                         ReadOnlySpan<TIndex> indices, ReadOnlySpan<long> indicesShape,
                                         ReadOnlySpan<T> updates, ReadOnlySpan<long> updatesShape, Span<T> output,
                                         ScatterOptions options = default(ScatterOptions),
                                         ScatterContext context = null)
            where T : struct where TIndex : struct
        {
            Run(Op.Nd, data, dataShape, indices, indicesShape, updates, updatesShape, output, options, context);
        }

        /// <summary>Nd over 1-D spans: n indices (as shape [n, 1]) and n updates.</summary>
        public static void Nd<T, TIndex>(ReadOnlySpan<T> data, ReadOnlySpan<TIndex> indices,
                                         ReadOnlySpan<T> updates, Span<T> output,
                                         ScatterOptions options = default(ScatterOptions),
                                         ScatterContext context = null)
            where T : struct where TIndex : struct
        {
            Run1D(Op.Nd, data, indices, updates, output, options, context);
        }

        // ---- The one path every form takes ----

        private enum Op { Elements, Rows, Nd }

        private static T[] RunArrays<T, TIndex>(Op op, T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                                T[] updates, long[] updatesShape, ScatterOptions options,
                                                ScatterContext context, T[] output)
            where T : struct where TIndex : struct
        {
            // A null array would become an empty span: refuse it instead.
            if (data == null) throw new ArgumentNullException("data");
            if (dataShape == null) throw new ArgumentNullException("dataShape");
            if (indices == null) throw new ArgumentNullException("indices");
            if (indicesShape == null) throw new ArgumentNullException("indicesShape");
            if (updates == null) throw new ArgumentNullException("updates");
            if (updatesShape == null) throw new ArgumentNullException("updatesShape");
            if (output == null) output = new T[data.Length];
            Run<T, TIndex>(op, data, dataShape, indices, indicesShape, updates, updatesShape, output, options, context);
            return output;
        }

        private static T[] RunArrays1D<T, TIndex>(Op op, T[] data, TIndex[] indices, T[] updates,
                                                  ScatterOptions options, ScatterContext context, T[] output)
            where T : struct where TIndex : struct
        {
            if (data == null) throw new ArgumentNullException("data");
            if (indices == null) throw new ArgumentNullException("indices");
            if (updates == null) throw new ArgumentNullException("updates");
            if (output == null) output = new T[data.Length];
            Run1D<T, TIndex>(op, data, indices, updates, output, options, context);
            return output;
        }

        private static unsafe void Run1D<T, TIndex>(Op op, ReadOnlySpan<T> data, ReadOnlySpan<TIndex> indices,
                                                    ReadOnlySpan<T> updates, Span<T> output, ScatterOptions options,
                                                    ScatterContext context)
            where T : struct where TIndex : struct
        {
            long* shapeMemory = stackalloc long[4];
            var shapes = new Span<long>(shapeMemory, 4);
            shapes[0] = data.Length;    // data
            shapes[1] = indices.Length; // indices: [n], or [n, 1] for nd
            shapes[2] = 1;
            shapes[3] = updates.Length; // updates
            Run(op, data, shapes.Slice(0, 1), indices, shapes.Slice(1, op == Op.Nd ? 2 : 1), updates, shapes.Slice(3, 1),
                output, options, context);
        }

        private static unsafe void Run<T, TIndex>(Op op, ReadOnlySpan<T> data, ReadOnlySpan<long> dataShape,
                                                  ReadOnlySpan<TIndex> indices, ReadOnlySpan<long> indicesShape,
                                                  ReadOnlySpan<T> updates, ReadOnlySpan<long> updatesShape,
                                                  Span<T> output, ScatterOptions options, ScatterContext context)
            where T : struct where TIndex : struct
        {
            CheckTensor("data", data.Length, dataShape);
            CheckTensor("indices", indices.Length, indicesShape);
            CheckTensor("updates", updates.Length, updatesShape);
            if (output.Length != data.Length)
                throw ScatterException.Binding(Status.ShapeMismatch, "output has " + output.Length +
                                               " elements, data has " + data.Length, "output");
            ElementType type = ElementType.Of<T>();
            ElementType indexType = ElementType.Of<TIndex>();
            if (context == null) context = SharedContext; // loads the library
            Native.Options nativeOptions = options.ToNative();
            fixed (byte* pData = &MemoryMarshal.GetReference(MemoryMarshal.AsBytes(data)))
            fixed (byte* pIndices = &MemoryMarshal.GetReference(MemoryMarshal.AsBytes(indices)))
            fixed (byte* pUpdates = &MemoryMarshal.GetReference(MemoryMarshal.AsBytes(updates)))
            fixed (byte* pOutput = &MemoryMarshal.GetReference(MemoryMarshal.AsBytes(output)))
            fixed (long* pDataShape = &MemoryMarshal.GetReference(dataShape))
            fixed (long* pIndicesShape = &MemoryMarshal.GetReference(indicesShape))
            fixed (long* pUpdatesShape = &MemoryMarshal.GetReference(updatesShape))
            {
                Native.Tensor tData = Tensor(type, pData, pDataShape, dataShape.Length);
                Native.Tensor tIndices = Tensor(indexType, pIndices, pIndicesShape, indicesShape.Length);
                Native.Tensor tUpdates = Tensor(type, pUpdates, pUpdatesShape, updatesShape.Length);
                Native.Tensor tOutput = Tensor(type, pOutput, pDataShape, dataShape.Length);
                Status status = Invoke(op, context.Handle, ref tData, ref tIndices, ref tUpdates, ref nativeOptions,
                                       ref tOutput);
                if (status != Status.Ok) throw ScatterException.FromLastError(status);
            }
        }

        private static unsafe Native.Tensor Tensor(ElementType type, byte* data, long* shape, int rank)
        {
            Native.Tensor tensor = Native.TensorInit();
            tensor.DType = type.DType;
            tensor.ElementSize = type.Size;
            tensor.Rank = (uint)rank;
            tensor.Shape = (IntPtr)shape;
            tensor.Data = (IntPtr)data;
            return tensor;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static Status Invoke(Op op, ContextHandle context, ref Native.Tensor data, ref Native.Tensor indices,
                                     ref Native.Tensor updates, ref Native.Options options, ref Native.Tensor output)
        {
            switch (op)
            {
                case Op.Elements:
                    return Native.scatter_elements(context, ref data, ref indices, ref updates, ref options, ref output);
                case Op.Rows:
                    return Native.scatter_rows(context, ref data, ref indices, ref updates, ref options, ref output);
                default:
                    return Native.scatter_nd(context, ref data, ref indices, ref updates, ref options, ref output);
            }
        }

        // The library reads as many elements as the shape names: the memory must hold exactly that
        // many, or the call would read or write outside it.
        private static void CheckTensor(string name, long length, ReadOnlySpan<long> shape)
        {
            if (shape.Length > Native.MaxRank)
                throw ScatterException.Binding(Status.ShapeMismatch, name + " has rank " + shape.Length +
                                               ", more than SCATTER_MAX_RANK (" + Native.MaxRank + ")", name + "Shape");
            long count = 1;
            for (int d = 0; d < shape.Length; ++d)
            {
                if (shape[d] < 0)
                    throw ScatterException.Binding(Status.ShapeMismatch,
                                                   name + " shape[" + d + "] = " + shape[d] + " is negative", name + "Shape");
                count = shape[d] == 0 || count <= long.MaxValue / shape[d] ? count * shape[d] : -1;
                if (count < 0)
                    throw ScatterException.Binding(Status.ShapeMismatch, name + " shape's element count overflows",
                                                   name + "Shape");
            }
            if (count != length)
                throw ScatterException.Binding(Status.ShapeMismatch, name + " has " + length +
                                               " elements, its shape " + ShapeText(shape) + " names " + count, name);
        }

        private static string ShapeText(ReadOnlySpan<long> shape)
        {
            var text = new System.Text.StringBuilder("[");
            for (int d = 0; d < shape.Length; ++d) text.Append(d == 0 ? "" : ", ").Append(shape[d]);
            return text.Append(']').ToString();
        }
    }
}
