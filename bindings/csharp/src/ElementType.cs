using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace LibScatter
{
    /// <summary>The scatter dtype of a managed element type.</summary>
    internal struct ElementType
    {
        public DType DType;
        public uint Size; // element_size: bytes of an opaque element, 0 for the others

        private static readonly Dictionary<Type, DType> Table = new Dictionary<Type, DType>
        {
            { typeof(float), DType.F32 },
            { typeof(double), DType.F64 },
            { typeof(sbyte), DType.I8 },
            { typeof(short), DType.I16 },
            { typeof(int), DType.I32 },
            { typeof(long), DType.I64 },
            { typeof(byte), DType.U8 },
            { typeof(ushort), DType.U16 },
            { typeof(uint), DType.U32 },
            { typeof(ulong), DType.U64 },
            { typeof(bool), DType.Bool },
            { typeof(System.Numerics.Complex), DType.C128 },
        };

        public static ElementType Of(Type type)
        {
            if (type.IsEnum) type = Enum.GetUnderlyingType(type);
            DType dtype;
            if (Table.TryGetValue(type, out dtype)) return new ElementType { DType = dtype };
            // System.Half exists from .NET 5 on; matched by name so that the binding also builds
            // where it does not (Mono, Unity).
            if (type.FullName == "System.Half") return new ElementType { DType = DType.F16 };
            // Any other struct travels as opaque bytes (only reduction none).
            return new ElementType { DType = DType.Opaque, Size = ArrayStride(type) };
        }

        private static readonly Dictionary<Type, uint> Strides = new Dictionary<Type, uint>();

        // The distance between two elements of a pinned T[] (Marshal.SizeOf gives the size of the
        // marshalled copy instead, which differs for a struct holding a bool or a char).
        private static uint ArrayStride(Type type)
        {
            lock (Strides)
            {
                uint stride;
                if (Strides.TryGetValue(type, out stride)) return stride;
                Array pair = Array.CreateInstance(type, 2);
                GCHandle handle;
                try
                {
                    handle = GCHandle.Alloc(pair, GCHandleType.Pinned);
                }
                catch (ArgumentException)
                {
                    throw ScatterException.Binding(Status.Unsupported, type + " arrays cannot be pinned (not blittable)");
                }
                try
                {
                    stride = (uint)((long)Marshal.UnsafeAddrOfPinnedArrayElement(pair, 1) -
                                    (long)Marshal.UnsafeAddrOfPinnedArrayElement(pair, 0));
                }
                finally
                {
                    handle.Free();
                }
                Strides[type] = stride;
                return stride;
            }
        }
    }
}
