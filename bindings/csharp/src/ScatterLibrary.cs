// Finds libscatter and loads it before the first P/Invoke, so that [DllImport("scatter")]
// resolves to the file chosen here, and says where it looked when there is none.
//
// Search order (the first file that loads wins):
//   1. the SCATTER_LIBRARY environment variable (a path, or a name for the system loader); when
//      it is set nothing else is tried: an explicit choice never falls back to another library
//   2. runtimes/<rid>/native/ next to LibScatter.dll (the .NET SDK's output layout), then
//      ../../runtimes/<rid>/native/ (LibScatter.dll inside an unpacked NuGet package, under
//      lib/<framework>/)
//   3. the folder of LibScatter.dll
//   4. the system's library search path (libscatter.so, then libscatter.so.0 on Linux)
// <rid> is linux-x64, linux-arm64, osx-x64, osx-arm64, win-x64, win-x86 or win-arm64.
//
// Making DllImport("scatter") use the loaded file:
//   - .NET Core 3+ / .NET 5+: NativeLibrary.SetDllImportResolver (found by reflection: it is not
//     part of netstandard2.1), answering "scatter" with the loaded handle;
//   - Mono: mono_dllmap_insert, the programmatic form of a <dllmap> in LibScatter.dll.config;
//   - .NET Framework on Windows: nothing more, since LoadLibrary("scatter.dll") returns the module
//     already loaded under that name.
// Under Unity the editor and the player load the package's Plugins/<platform>/ library themselves
// (and IL2CPP has no mono_dllmap_insert): there this class only checks that the library answers.
//
// Mono resolves a P/Invoke when it compiles the method that calls it, not when the call runs.
// So every method of this binding that calls a Native.scatter_* function is
// [MethodImpl(MethodImplOptions.NoInlining)] and runs only after Load(): the public entry points
// call Load() first and then such a method. Code that calls Native directly should call
// ScatterLibrary.Load() once, in a method that does not itself call Native.
using System;
using System.Collections.Generic;
using System.ComponentModel;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace LibScatter
{
    /// <summary>Finds and loads the native libscatter library (see the search order above).
    /// The wrapper (Scatter, ScatterContext) calls <see cref="Load"/> itself.</summary>
    public static class ScatterLibrary
    {
        /// <summary>The environment variable naming the library to load ("SCATTER_LIBRARY").</summary>
        public const string EnvironmentVariable = "SCATTER_LIBRARY";

        private static readonly object LoadLock = new object();
        private static volatile string loadedFrom;
        // A failure that a retry cannot cure: Mono keeps a P/Invoke that failed to resolve failed.
        private static Exception permanentFailure;
#if !UNITY_5_3_OR_NEWER
        private static IntPtr resolvedHandle;
#endif

        /// <summary>Where the library was loaded from: its full path, "system: NAME" for the
        /// system's search path, or "Unity plugin"; null before it was loaded.</summary>
        public static string LoadedFrom
        {
            get { return loadedFrom; }
        }

        /// <summary>Loads the library unless already loaded and checks that DllImport reaches it and
        /// that its major version is the binding's. Thread-safe; cheap after the first success.</summary>
        /// <returns><see cref="LoadedFrom"/>.</returns>
        /// <exception cref="DllNotFoundException">Nothing loaded; the message lists every place
        /// looked at and why each failed.</exception>
        /// <exception cref="InvalidOperationException">The library's major version differs from
        /// <see cref="Native.VersionMajor"/>.</exception>
        public static string Load()
        {
            string from = loadedFrom;
            if (from != null) return from;
            lock (LoadLock)
            {
                if (loadedFrom == null)
                {
                    if (permanentFailure != null) throw permanentFailure;
                    loadedFrom = LoadLocked();
                }
                return loadedFrom;
            }
        }

        /// <summary>The file name of the library on this platform: libscatter.so, scatter.dll or
        /// libscatter.dylib.</summary>
        public static string FileName
        {
            get
            {
                if (IsWindows) return "scatter.dll";
                if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX)) return "libscatter.dylib";
                return "libscatter.so";
            }
        }

        /// <summary>The runtime identifier of this process as NuGet names it (linux-x64, win-x64,
        /// osx-arm64, ...), or null on a platform NuGet has no name for here.</summary>
        public static string RuntimeIdentifier
        {
            get
            {
                string os = IsWindows ? "win"
                    : RuntimeInformation.IsOSPlatform(OSPlatform.OSX) ? "osx"
                    : RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "linux" : null;
                string arch;
                switch (RuntimeInformation.ProcessArchitecture)
                {
                    case Architecture.X64: arch = "x64"; break;
                    case Architecture.X86: arch = "x86"; break;
                    case Architecture.Arm64: arch = "arm64"; break;
                    case Architecture.Arm: arch = "arm"; break;
                    default: arch = null; break;
                }
                return os == null || arch == null ? null : os + "-" + arch;
            }
        }

        private static bool IsWindows
        {
            get { return RuntimeInformation.IsOSPlatform(OSPlatform.Windows); }
        }

#if UNITY_5_3_OR_NEWER
        private static string LoadLocked()
        {
            try
            {
                CheckVersion();
            }
            catch (DllNotFoundException e)
            {
                throw Permanent(new DllNotFoundException(
                    "libscatter was not found: Unity loads " + FileName + " from the package's " +
                    "Plugins/<platform>/ folder. Check that the file for this platform is there and that its " +
                    "import settings enable it for this platform and the editor. (" + e.Message + ")", e));
            }
            return "Unity plugin";
        }
#else
        private static string LoadLocked()
        {
            var looked = new List<string>();
            string explicitLibrary = Environment.GetEnvironmentVariable(EnvironmentVariable);
            if (!string.IsNullOrEmpty(explicitLibrary))
            {
                string target = File.Exists(explicitLibrary) ? Path.GetFullPath(explicitLibrary) : explicitLibrary;
                string error;
                IntPtr handle = Open(target, out error);
                if (handle == IntPtr.Zero)
                {
                    throw new DllNotFoundException(
                        "libscatter could not be loaded from " + EnvironmentVariable + "=" + explicitLibrary + ": " +
                        error + ". An explicit " + EnvironmentVariable + " is never replaced by another library: " +
                        "correct it, or unset it to search runtimes/" + (RuntimeIdentifier ?? "<rid>") +
                        "/native, the binding's folder and the system's library path.");
                }
                return Use(target, handle, target);
            }
            looked.Add(EnvironmentVariable + ": not set");

            foreach (string directory in CandidateDirectories(looked))
            {
                string path = Path.Combine(directory, FileName);
                if (!File.Exists(path))
                {
                    looked.Add(path + ": no such file");
                    continue;
                }
                string error;
                IntPtr handle = Open(path, out error);
                if (handle != IntPtr.Zero) return Use(path, handle, path);
                looked.Add(path + ": exists but did not load: " + error);
            }

            foreach (string name in SystemNames())
            {
                string error;
                IntPtr handle = Open(name, out error);
                if (handle != IntPtr.Zero) return Use(name, handle, "system: " + name);
                looked.Add("the system's library path (" + SystemSearchPath() + ") for " + name + ": " + error);
            }

            var message = new StringBuilder();
            message.Append("libscatter was not found. The C# binding looked in these places, in this order:");
            for (int i = 0; i < looked.Count; ++i)
                message.Append("\n  ").Append(i + 1).Append(". ").Append(looked[i]);
            message.Append("\nSet ").Append(EnvironmentVariable).Append(" to the library's path, or put ")
                   .Append(FileName).Append(" into one of these folders.");
            throw new DllNotFoundException(message.ToString());
        }

        private static IEnumerable<string> CandidateDirectories(List<string> looked)
        {
            string location = typeof(ScatterLibrary).Assembly.Location;
            string directory;
            if (!string.IsNullOrEmpty(location))
            {
                directory = Path.GetDirectoryName(Path.GetFullPath(location));
            }
            else
            {
                // Loaded from bytes (a single-file application): the application's folder instead.
                directory = AppDomain.CurrentDomain.BaseDirectory;
                looked.Add("the location of LibScatter.dll: unknown (loaded from memory); used the application's folder");
            }
            string rid = RuntimeIdentifier;
            if (rid != null)
            {
                yield return Path.Combine(Path.Combine(Path.Combine(directory, "runtimes"), rid), "native");
                string package = Path.GetFullPath(Path.Combine(Path.Combine(directory, ".."), ".."));
                yield return Path.Combine(Path.Combine(Path.Combine(package, "runtimes"), rid), "native");
            }
            else
            {
                looked.Add("runtimes/<rid>/native: this platform has no NuGet runtime identifier");
            }
            yield return directory;
        }

        private static string[] SystemNames()
        {
            if (IsWindows) return new[] { "scatter.dll" };
            if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX)) return new[] { "libscatter.dylib", "libscatter.0.dylib" };
            return new[] { "libscatter.so", "libscatter.so.0" };
        }

        private static string SystemSearchPath()
        {
            if (IsWindows) return "the application's folder, System32, PATH";
            if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX)) return "DYLD_LIBRARY_PATH, /usr/local/lib, /usr/lib";
            return "LD_LIBRARY_PATH, /etc/ld.so.cache, /lib, /usr/lib";
        }

        // Routes DllImport("scatter") to the loaded library, then checks it answers.
        private static string Use(string target, IntPtr handle, string description)
        {
            resolvedHandle = handle;
            if (!SetDllImportResolver() && Type.GetType("Mono.Runtime") != null) MonoDllMap(target);
            try
            {
                CheckVersion();
            }
            catch (DllNotFoundException e)
            {
                throw Permanent(new DllNotFoundException(
                    "libscatter was loaded from " + description + ", but DllImport(\"" + Native.LibraryName +
                    "\") did not resolve to it on this runtime (" + e.Message + ")", e));
            }
            catch (EntryPointNotFoundException e)
            {
                throw Permanent(new DllNotFoundException(
                    description + " loaded but is not libscatter: it has no scatter_version (" + e.Message + ")", e));
            }
            return description;
        }

        // .NET Core 3.0+ and .NET 5+: the runtime asks this resolver for every DllImport of this
        // assembly. Returns false where the runtime has no NativeLibrary (Mono, .NET Framework).
        private static bool SetDllImportResolver()
        {
            Type nativeLibrary = Type.GetType("System.Runtime.InteropServices.NativeLibrary", false);
            Type resolverType = Type.GetType("System.Runtime.InteropServices.DllImportResolver", false);
            if (nativeLibrary == null || resolverType == null) return false;
            MethodInfo set = nativeLibrary.GetMethod("SetDllImportResolver", new[] { typeof(Assembly), resolverType });
            MethodInfo resolve = typeof(ScatterLibrary).GetMethod("Resolve", BindingFlags.NonPublic | BindingFlags.Static);
            if (set == null || resolve == null) return false;
            try
            {
                set.Invoke(null, new object[] { typeof(ScatterLibrary).Assembly, Delegate.CreateDelegate(resolverType, resolve) });
            }
            catch (TargetInvocationException e)
            {
                // The application registered its own resolver for this assembly: it decides.
                if (!(e.InnerException is InvalidOperationException)) throw;
            }
            return true;
        }

        private static IntPtr Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
        {
            return name == Native.LibraryName ? resolvedHandle : IntPtr.Zero;
        }

        private static void MonoDllMap(string target)
        {
            try
            {
                MonoDllMapInsert(target);
            }
            catch (EntryPointNotFoundException)
            {
                // A Mono without the embedding API in the executable: the system search must find it.
            }
            catch (DllNotFoundException)
            {
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void MonoDllMapInsert(string target)
        {
            mono_dllmap_insert(IntPtr.Zero, Native.LibraryName, null, target, null);
        }

        [DllImport("__Internal", CharSet = CharSet.Ansi)]
        private static extern void mono_dllmap_insert(IntPtr assembly, string dll, string func, string tdll, string tfunc);

        // ---- loading a file: dlopen (Linux, macOS) or LoadLibraryEx (Windows) ----

        private const int RtldNow = 2;
        private const uint LoadWithAlteredSearchPath = 0x8;

        private static IntPtr Open(string pathOrName, out string error)
        {
            if (IsWindows) return LoadLibrary(pathOrName, out error);
            if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX)) return DlOpenSystem(pathOrName, out error);
            try
            {
                return DlOpenLibdl(pathOrName, out error);
            }
            catch (DllNotFoundException)
            {
                // No libdl.so.2 (musl): dlopen is in the C library.
                return DlOpenLibc(pathOrName, out error);
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static IntPtr DlOpenLibdl(string path, out string error)
        {
            Libdl.dlerror();
            IntPtr handle = Libdl.dlopen(path, RtldNow);
            error = handle == IntPtr.Zero ? Native.Utf8(Libdl.dlerror()) : null;
            return handle;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static IntPtr DlOpenLibc(string path, out string error)
        {
            Libc.dlerror();
            IntPtr handle = Libc.dlopen(path, RtldNow);
            error = handle == IntPtr.Zero ? Native.Utf8(Libc.dlerror()) : null;
            return handle;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static IntPtr DlOpenSystem(string path, out string error)
        {
            LibSystem.dlerror();
            IntPtr handle = LibSystem.dlopen(path, RtldNow);
            error = handle == IntPtr.Zero ? Native.Utf8(LibSystem.dlerror()) : null;
            return handle;
        }

        // A path loads with its dependencies searched in its own folder.
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static IntPtr LoadLibrary(string pathOrName, out string error)
        {
            IntPtr module = LoadLibraryExW(pathOrName, IntPtr.Zero,
                                           Path.IsPathRooted(pathOrName) ? LoadWithAlteredSearchPath : 0);
            error = module == IntPtr.Zero ? new Win32Exception(Marshal.GetLastWin32Error()).Message : null;
            return module;
        }

        [DllImport("kernel32", CharSet = CharSet.Unicode, SetLastError = true)]
        private static extern IntPtr LoadLibraryExW(string path, IntPtr file, uint flags);

        private static class Libdl
        {
            [DllImport("libdl.so.2", CharSet = CharSet.Ansi)]
            public static extern IntPtr dlopen(string path, int flags);

            [DllImport("libdl.so.2")]
            public static extern IntPtr dlerror();
        }

        private static class Libc
        {
            [DllImport("libc", CharSet = CharSet.Ansi)]
            public static extern IntPtr dlopen(string path, int flags);

            [DllImport("libc")]
            public static extern IntPtr dlerror();
        }

        private static class LibSystem
        {
            [DllImport("/usr/lib/libSystem.dylib", CharSet = CharSet.Ansi)]
            public static extern IntPtr dlopen(string path, int flags);

            [DllImport("/usr/lib/libSystem.dylib")]
            public static extern IntPtr dlerror();
        }
#endif

        private static Exception Permanent(Exception e)
        {
            permanentFailure = e;
            return e;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void CheckVersion()
        {
            uint version = Native.scatter_version();
            uint major = version >> 22;
            if (major != Native.VersionMajor)
            {
                throw Permanent(new InvalidOperationException(
                    "libscatter " + Native.Utf8(Native.scatter_version_string()) + " has major version " + major +
                    "; this binding needs " + Native.VersionMajor));
            }
        }
    }
}
