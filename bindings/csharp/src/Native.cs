// Raw P/Invoke declarations of include/scatter/scatter.h. Structs are blittable and laid out
// exactly as the C structs (checked by the test against sizeof/offsetof printed by a C program);
// enums are 32-bit like the header's. Strings come back as IntPtr: the library owns them, so the
// marshaller must not free them. Call ScatterLibrary.Load() before the first call made here
// directly (see ScatterLibrary.cs for why, and where it looks for the library).
using System;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace LibScatter
{
    /// <summary>scatter_status. Values are pinned forever by the C API.</summary>
    public enum Status : int
    {
        Ok = 0,
        InvalidArgument = 1,
        TypeMismatch = 2,
        ShapeMismatch = 3,
        IndexOutOfRange = 4,
        Unsupported = 5,
        OutOfMemory = 6,
        BackendUnavailable = 7,
        DeviceLost = 8,
        Internal = 9,
    }

    /// <summary>scatter_dtype: element types of tensors.</summary>
    public enum DType : int
    {
        Undefined = 0,
        F16 = 1,
        BF16 = 2,
        F32 = 3,
        F64 = 4,
        I8 = 5,
        I16 = 6,
        I32 = 7,
        I64 = 8,
        U8 = 9,
        U16 = 10,
        U32 = 11,
        U64 = 12,
        Bool = 13,
        C64 = 14,
        C128 = 15,
        Opaque = 16,
    }

    /// <summary>scatter_reduction: how updates combine with their target.</summary>
    public enum Reduction : int
    {
        Default = 0,
        None = 1,
        Add = 2,
        Sub = 3,
        Mul = 4,
        Div = 5,
        Max = 6,
        Min = 7,
        Mean = 8,
    }

    /// <summary>scatter_out_of_range: what happens to an index outside [-s, s).</summary>
    public enum OutOfRange : int
    {
        Default = 0,
        Error = 1,
        Skip = 2,
        Clamp = 3,
    }

    /// <summary>scatter_backend.</summary>
    public enum Backend : int
    {
        Auto = 0,
        Cpu = 1,
        Vulkan = 2,
    }

    /// <summary>scatter_device_type.</summary>
    public enum DeviceType : int
    {
        Other = 0,
        IntegratedGpu = 1,
        DiscreteGpu = 2,
        VirtualGpu = 3,
        Cpu = 4,
    }

    /// <summary>SCATTER_FEATURE_*: device features that matter to scatter.</summary>
    [Flags]
    public enum DeviceFeatures : ulong
    {
        None = 0,
        Int8 = 0x1,
        Int16 = 0x2,
        Int64 = 0x4,
        Float16 = 0x8,
        Float64 = 0x10,
        Storage8 = 0x20,
        Storage16 = 0x40,
        Int64Atomics = 0x80,
        Float32AtomicAdd = 0x100,
        Float32AtomicMinMax = 0x200,
        Subgroups = 0x400,
        BufferDeviceAddress = 0x800,
        /// <summary>Subnormal f32 (f16, bf16, c64) values are kept by arithmetic.</summary>
        DenormPreserve32 = 0x1000,
        /// <summary>Subnormal f64 (c128) values are kept by arithmetic.</summary>
        DenormPreserve64 = 0x2000,
        /// <summary>64-bit integer atomics on workgroup shared memory.</summary>
        SharedInt64Atomics = 0x4000,
    }

    /// <summary>The C API as declared in scatter.h, for callers who need more than the
    /// Scatter wrapper (buffers, views with strides). Every function follows the header's rules.</summary>
    public static class Native
    {
#if UNITY_IOS && !UNITY_EDITOR
        // iOS links libscatter statically into the application.
        public const string LibraryName = "__Internal";
#else
        // "scatter": libscatter.so (Linux, Android), scatter.dll (Windows), libscatter.dylib (macOS).
        public const string LibraryName = "scatter";
#endif

        /// <summary>The major version this binding was written for (SCATTER_VERSION_MAJOR).</summary>
        public const uint VersionMajor = 0;

        /// <summary>SCATTER_MAX_RANK: the largest rank any tensor may have.</summary>
        public const int MaxRank = 16;

        public const uint OptionExcludeSelf = 0x1;
        public const uint OptionAllowNondeterminism = 0x2;
        public const uint ContextFlagAllowNondeterminism = 0x1;
        public const uint ContextFlagValidation = 0x2;

        /// <summary>scatter_tensor.</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct Tensor
        {
            public uint StructSize;
            public DType DType;
            public uint ElementSize;
            public uint Rank;
            public IntPtr Shape;   // const int64_t*
            public IntPtr Strides; // const int64_t*, or zero for contiguous
            public IntPtr Data;    // host memory
            public IntPtr Buffer;  // scatter_buffer
            public ulong ByteOffset;
        }

        /// <summary>scatter_options.</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct Options
        {
            public uint StructSize;
            public int Axis;
            public Reduction Reduction;
            public OutOfRange OutOfRange;
            public uint Flags;
        }

        /// <summary>scatter_context_desc. The callbacks are raw function pointers.</summary>
        [StructLayout(LayoutKind.Sequential)]
        public struct ContextDesc
        {
            public uint StructSize;
            public Backend Backend;
            public int DeviceIndex;
            public uint ThreadCount;
            public uint Flags;
            public IntPtr ParallelFor;
            public IntPtr ParallelForUser;
            public IntPtr Allocator;
            public IntPtr Log;
            public IntPtr LogUser;
        }

        /// <summary>scatter_device_info. Name is NUL-terminated UTF-8.</summary>
        [StructLayout(LayoutKind.Sequential)]
        public unsafe struct DeviceInfo
        {
            public uint StructSize;
            public Backend Backend;
            public uint Index;
            public DeviceType Type;
            public fixed byte Name[256];
            public uint VendorId;
            public uint DeviceId;
            public uint ApiVersion;
            public uint ThreadCount;
            public DeviceFeatures Features;
            public ulong MaxBufferRange;
        }

        /// <summary>SCATTER_TENSOR_INIT.</summary>
        public static Tensor TensorInit()
        {
            return new Tensor { StructSize = (uint)Marshal.SizeOf(typeof(Tensor)) };
        }

        /// <summary>SCATTER_OPTIONS_INIT.</summary>
        public static Options OptionsInit()
        {
            return new Options { StructSize = (uint)Marshal.SizeOf(typeof(Options)) };
        }

        /// <summary>SCATTER_CONTEXT_DESC_INIT.</summary>
        public static ContextDesc ContextDescInit()
        {
            return new ContextDesc { StructSize = (uint)Marshal.SizeOf(typeof(ContextDesc)), DeviceIndex = -1 };
        }

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern uint scatter_version();

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr scatter_version_string();

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr scatter_status_name(Status status);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr scatter_last_error_message();

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern UIntPtr scatter_dtype_size(DType dtype);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr scatter_dtype_name(DType dtype);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr scatter_backend_name(Backend backend);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr scatter_reduction_name(Reduction reduction);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern Status scatter_context_create(ref ContextDesc desc, out ContextHandle context);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern void scatter_context_destroy(IntPtr context);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern Status scatter_context_backend(ContextHandle context, out Backend backend);

        /// <summary>With infos null, writes the number of devices to count; otherwise count is the
        /// capacity of infos (each with StructSize set) and receives the number written.</summary>
        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern Status scatter_devices([In, Out] DeviceInfo[] infos, ref uint count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern Status scatter_elements(ContextHandle context, ref Tensor data, ref Tensor indices,
                                                     ref Tensor updates, ref Options options, ref Tensor output);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern Status scatter_rows(ContextHandle context, ref Tensor data, ref Tensor indices,
                                                 ref Tensor updates, ref Options options, ref Tensor output);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl)]
        public static extern Status scatter_nd(ContextHandle context, ref Tensor data, ref Tensor indices,
                                               ref Tensor updates, ref Options options, ref Tensor output);

        /// <summary>A library-owned NUL-terminated UTF-8 string as a managed string.</summary>
        public static string Utf8(IntPtr text)
        {
            if (text == IntPtr.Zero) return "";
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0) ++length;
            byte[] bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return System.Text.Encoding.UTF8.GetString(bytes);
        }
    }

    /// <summary>A scatter_context owned by managed code: destroyed once, when released, and
    /// kept alive by the marshaller for the duration of every call that uses it.</summary>
    public sealed class ContextHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public ContextHandle() : base(true) { }

        protected override bool ReleaseHandle()
        {
            Native.scatter_context_destroy(handle);
            return true;
        }
    }
}
