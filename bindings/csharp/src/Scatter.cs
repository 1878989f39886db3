// The safe wrapper: the three operations over managed arrays, pinned for the duration of the
// call (no copies), each with its row-major shape.
using System;
using System.Runtime.InteropServices;
using System.Threading;

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

    /// <summary>The three scatter operations over managed arrays. Element types: float, double,
    /// sbyte, short, int, long, byte, ushort, uint, ulong, bool, System.Numerics.Complex (c128),
    /// System.Half where the runtime has it (f16), enums (as their underlying type), and any
    /// other blittable struct as an opaque element (reduction none only). Index types: int, long.
    /// Every array is a contiguous row-major tensor whose length must equal its shape's product.
    /// </summary>
    public static class Scatter
    {
        private static readonly object SharedLock = new object();
        private static ScatterContext shared;
        private static int versionChecked;

        /// <summary>The reduction named `name`: none, add, sub, mul, div, max, min, mean, or the
        /// PyTorch (sum, prod, amax, amin) and ONNX (multiply) names, aliases of add, mul, max,
        /// min. Throws ArgumentException for any other name.</summary>
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
                    throw new ArgumentException("reduction \"" + name + "\" is not one of none, add, sub, mul, " +
                                                "div, max, min, mean (or sum, prod, multiply, amax, amin)", "name");
            }
        }

        /// <summary>The loaded library's version string, e.g. "0.1.0".</summary>
        public static string LibraryVersion
        {
            get { return Native.Utf8(Native.scatter_version_string()); }
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

        /// <summary>ONNX ScatterElements / PyTorch scatter_reduce_: the update at position p goes
        /// to p with p[axis] = indices[p]. indices and updates have the same shape.</summary>
        /// <returns>output, or a new array when output is null; output may be data (in place).</returns>
        public static T[] Elements<T, TIndex>(T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                              T[] updates, long[] updatesShape,
                                              ScatterOptions options = default(ScatterOptions),
                                              ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return Run(Op.Elements, data, dataShape, indices, indicesShape, updates, updatesShape, options, context, output);
        }

        /// <summary>MindSpore scatter_*, Paddle scatter, PyTorch index_add_: the slice of updates at
        /// index position p goes to the slice of data at indices[p] on the axis;
        /// updates.shape = data.shape[:axis] + indices.shape + data.shape[axis+1:].</summary>
        public static T[] Rows<T, TIndex>(T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                          T[] updates, long[] updatesShape,
                                          ScatterOptions options = default(ScatterOptions),
                                          ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return Run(Op.Rows, data, dataShape, indices, indicesShape, updates, updatesShape, options, context, output);
        }

        /// <summary>ONNX ScatterND, TensorFlow tensor_scatter_nd_*: indices.shape = [..., k],
        /// updates.shape = indices.shape[:-1] + data.shape[k:]. options.Axis must be 0.</summary>
        public static T[] Nd<T, TIndex>(T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                        T[] updates, long[] updatesShape,
                                        ScatterOptions options = default(ScatterOptions),
                                        ScatterContext context = null, T[] output = null)
            where T : struct where TIndex : struct
        {
            return Run(Op.Nd, data, dataShape, indices, indicesShape, updates, updatesShape, options, context, output);
        }

        private enum Op { Elements, Rows, Nd }

        internal static void CheckLibraryVersion()
        {
            if (Volatile.Read(ref versionChecked) != 0) return;
            uint major = Native.scatter_version() >> 22;
            if (major != Native.VersionMajor)
                throw new InvalidOperationException("libscatter " + LibraryVersion + " has major version " + major +
                                                    "; this binding needs " + Native.VersionMajor);
            Volatile.Write(ref versionChecked, 1);
        }

        private static T[] Run<T, TIndex>(Op op, T[] data, long[] dataShape, TIndex[] indices, long[] indicesShape,
                                          T[] updates, long[] updatesShape, ScatterOptions options,
                                          ScatterContext context, T[] output)
            where T : struct where TIndex : struct
        {
            CheckLibraryVersion();
            CheckArray("data", data, dataShape);
            CheckArray("indices", indices, indicesShape);
            CheckArray("updates", updates, updatesShape);
            if (output == null)
            {
                output = new T[data.Length];
            }
            else if (output.Length != data.Length)
            {
                throw ScatterException.Binding(Status.ShapeMismatch, "output has " + output.Length +
                                               " elements, data has " + data.Length);
            }
            if (context == null) context = SharedContext;

            Native.Options nativeOptions = options.ToNative();
            using (var pins = new Pins())
            {
                Native.Tensor tData = pins.Tensor(data, dataShape);
                Native.Tensor tIndices = pins.Tensor(indices, indicesShape);
                Native.Tensor tUpdates = pins.Tensor(updates, updatesShape);
                Native.Tensor tOut = pins.Tensor(output, dataShape);
                Status status;
                switch (op)
                {
                    case Op.Elements:
                        status = Native.scatter_elements(context.Handle, ref tData, ref tIndices, ref tUpdates,
                                                         ref nativeOptions, ref tOut);
                        break;
                    case Op.Rows:
                        status = Native.scatter_rows(context.Handle, ref tData, ref tIndices, ref tUpdates,
                                                     ref nativeOptions, ref tOut);
                        break;
                    default:
                        status = Native.scatter_nd(context.Handle, ref tData, ref tIndices, ref tUpdates,
                                                   ref nativeOptions, ref tOut);
                        break;
                }
                ScatterException.Check(status);
            }
            return output;
        }

        // The library reads as many elements as the shape names: an array must hold exactly that
        // many, or the call would read or write outside it.
        private static void CheckArray<T>(string name, T[] array, long[] shape)
        {
            if (array == null) throw new ArgumentNullException(name);
            if (shape == null) throw new ArgumentNullException(name + "Shape");
            long count = 1;
            for (int d = 0; d < shape.Length; ++d)
            {
                if (shape[d] < 0)
                    throw ScatterException.Binding(Status.ShapeMismatch,
                                                   name + " shape[" + d + "] = " + shape[d] + " is negative");
                count = shape[d] == 0 || count <= long.MaxValue / shape[d] ? count * shape[d] : -1;
                if (count < 0)
                    throw ScatterException.Binding(Status.ShapeMismatch, name + " shape's element count overflows");
            }
            if (count != array.LongLength)
                throw ScatterException.Binding(Status.ShapeMismatch, name + " has " + array.LongLength +
                                               " elements, its shape " + ShapeText(shape) + " names " + count);
        }

        private static string ShapeText(long[] shape)
        {
            return "[" + string.Join(", ", Array.ConvertAll(shape, d => d.ToString())) + "]";
        }

        // Pinned arrays of one call, released together.
        private sealed class Pins : IDisposable
        {
            private readonly GCHandle[] handles = new GCHandle[8];
            private int count;

            public Native.Tensor Tensor<T>(T[] array, long[] shape) where T : struct
            {
                ElementType type = ElementType.Of(typeof(T));
                Native.Tensor tensor = Native.TensorInit();
                tensor.DType = type.DType;
                tensor.ElementSize = type.Size;
                tensor.Rank = (uint)shape.Length;
                tensor.Shape = Pin(shape);
                tensor.Data = Pin(array);
                return tensor;
            }

            private IntPtr Pin(Array array)
            {
                GCHandle handle;
                try
                {
                    handle = GCHandle.Alloc(array, GCHandleType.Pinned);
                }
                catch (ArgumentException)
                {
                    throw ScatterException.Binding(Status.Unsupported, array.GetType().GetElementType() +
                                                   " arrays cannot be pinned (not blittable)");
                }
                handles[count++] = handle;
                return handle.AddrOfPinnedObject();
            }

            public void Dispose()
            {
                for (int i = 0; i < count; ++i) handles[i].Free();
                count = 0;
            }
        }
    }
}
