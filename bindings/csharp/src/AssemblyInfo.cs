// The assembly's identity: its version is the library's (CMakeLists.txt project VERSION, checked
// by the packaging.version test), its licence the repository's LICENSE (MIT).
using System.Reflection;

[assembly: AssemblyTitle("LibScatter")]
[assembly: AssemblyDescription("C# binding of libscatter: scatter on the CPU or any Vulkan GPU over its C ABI")]
[assembly: AssemblyCopyright("Copyright (c) 2026 the libscatter authors. MIT License.")]
[assembly: AssemblyVersion("0.1.0")]
[assembly: AssemblyInformationalVersion("0.1.0")]
