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

        private static readonly Dictionary<Type, uint> OpaqueSizes = new Dictionary<Type, uint>();

        public static ElementType Of<T>() where T : struct
        {
            Type type = typeof(T);
            if (type.IsEnum) type = Enum.GetUnderlyingType(type);
            DType dtype;
            if (Table.TryGetValue(type, out dtype)) return new ElementType { DType = dtype };
            // System.Half exists from .NET 5 on; matched by name so that the binding also builds
            // where it does not (Mono, Unity).
            if (type.FullName == "System.Half") return new ElementType { DType = DType.F16 };
            // Any other struct travels as opaque bytes (only reduction none).
            return new ElementType { DType = DType.Opaque, Size = OpaqueSize<T>() };
        }

        // The distance between two elements of a T[] or Span<T> (Marshal.SizeOf gives the size of
        // the marshalled copy instead, which differs for a struct holding a bool or a char).
        private static uint OpaqueSize<T>() where T : struct
        {
            lock (OpaqueSizes)
            {
                uint size;
                if (OpaqueSizes.TryGetValue(typeof(T), out size)) return size;
                try
                {
                    size = (uint)MemoryMarshal.AsBytes(new ReadOnlySpan<T>(new T[1])).Length;
                }
                catch (ArgumentException)
                {
                    throw ScatterException.Binding(Status.Unsupported,
                                                   typeof(T) + " holds references: only plain-data structs can be scattered");
                }
                OpaqueSizes[typeof(T)] = size;
                return size;
            }
        }
    }
}
