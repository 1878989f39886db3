using System;
using System.Runtime.CompilerServices;

namespace LibScatter
{
    /// <summary>A libscatter context: a backend, its device, threads and caches. Create it once
    /// and reuse it; it may be used from several threads at once. Dispose it when done.</summary>
    public sealed class ScatterContext : IDisposable
    {
        internal readonly ContextHandle Handle;

        /// <summary>Creates a context.</summary>
        /// <param name="backend">Auto (Vulkan when a usable device exists and the work is large
        /// enough, the CPU otherwise), Cpu or Vulkan.</param>
        /// <param name="threads">CPU threads; 0 means one per hardware thread.</param>
        /// <param name="device">Vulkan device index (Device.Index of Scatter.Devices()), or -1 to
        /// choose automatically.</param>
        /// <param name="allowNondeterminism">Allow faster paths whose float results may depend on
        /// the order in which duplicate targets are applied.</param>
        /// <exception cref="ScatterException">BackendUnavailable when Vulkan is asked for and
        /// there is no loader, driver or device.</exception>
        /// <exception cref="ScatterArgumentException">InvalidArgument for a bad value.</exception>
        /// <exception cref="DllNotFoundException">libscatter was not found (the message says where
        /// the binding looked).</exception>
        public ScatterContext(Backend backend = Backend.Auto, int threads = 0, int device = -1,
                              bool allowNondeterminism = false)
        {
            if (threads < 0)
                throw ScatterException.Binding(Status.InvalidArgument, "threads = " + threads + " must be >= 0",
                                               "threads");
            ScatterLibrary.Load();
            Native.ContextDesc desc = Native.ContextDescInit();
            desc.Backend = backend;
            desc.ThreadCount = (uint)threads;
            desc.DeviceIndex = device;
            desc.Flags = allowNondeterminism ? Native.ContextFlagAllowNondeterminism : 0u;
            Handle = Create(ref desc);
        }

        // Called after ScatterLibrary.Load() (see ScatterLibrary.cs).
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static ContextHandle Create(ref Native.ContextDesc desc)
        {
            ContextHandle handle;
            Status status = Native.scatter_context_create(ref desc, out handle);
            if (status != Status.Ok)
            {
                handle.SetHandleAsInvalid();
                throw ScatterException.FromLastError(status);
            }
            return handle;
        }

        /// <summary>The backend the context runs on: Cpu or Vulkan, never Auto.</summary>
        public Backend Backend
        {
            [MethodImpl(MethodImplOptions.NoInlining)]
            get
            {
                Backend backend;
                ScatterException.Check(Native.scatter_context_backend(Handle, out backend));
                return backend;
            }
        }

        /// <summary>Destroys the context. Calls still running on other threads keep it alive
        /// until they return.</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
