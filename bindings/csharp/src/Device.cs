using System;
using System.Runtime.CompilerServices;

namespace LibScatter
{
    /// <summary>One device, as scatter_devices lists it (see Scatter.Devices()).</summary>
    public sealed class Device
    {
        /// <summary>Cpu or Vulkan.</summary>
        public Backend Backend { get; private set; }

        /// <summary>The device index to pass to ScatterContext (Vulkan devices).</summary>
        public int Index { get; private set; }

        public DeviceType Type { get; private set; }

        public string Name { get; private set; }

        public uint VendorId { get; private set; }

        public uint DeviceId { get; private set; }

        /// <summary>The Vulkan API version; 0 for the CPU.</summary>
        public uint ApiVersion { get; private set; }

        /// <summary>CPU: hardware threads; Vulkan: subgroup size.</summary>
        public uint ThreadCount { get; private set; }

        public DeviceFeatures Features { get; private set; }

        /// <summary>The largest single binding in bytes; ulong.MaxValue for the CPU.</summary>
        public ulong MaxBufferRange { get; private set; }

        public override string ToString()
        {
            return Index + ": " + Name + " (" + Backend + ", " + Type + ")";
        }

        // Called after ScatterLibrary.Load() (see ScatterLibrary.cs).
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static unsafe Device[] List()
        {
            uint count = 0;
            ScatterException.Check(Native.scatter_devices(null, ref count));
            var infos = new Native.DeviceInfo[count];
            for (int i = 0; i < infos.Length; ++i) infos[i].StructSize = (uint)sizeof(Native.DeviceInfo);
            ScatterException.Check(Native.scatter_devices(infos, ref count));
            var devices = new Device[count];
            for (int i = 0; i < devices.Length; ++i)
            {
                string name;
                fixed (byte* text = infos[i].Name) name = Native.Utf8((IntPtr)text);
                devices[i] = new Device
                {
                    Backend = infos[i].Backend,
                    Index = (int)infos[i].Index,
                    Type = infos[i].Type,
                    Name = name,
                    VendorId = infos[i].VendorId,
                    DeviceId = infos[i].DeviceId,
                    ApiVersion = infos[i].ApiVersion,
                    ThreadCount = infos[i].ThreadCount,
                    Features = infos[i].Features,
                    MaxBufferRange = infos[i].MaxBufferRange,
                };
            }
            return devices;
        }
    }
}
