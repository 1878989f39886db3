// A console application using the NuGet package, as check_nuget.sh compiles it against the
// package's LibScatter.dll and runs it under mono. Prints what it computed and where libscatter
// was loaded from, or the DllNotFoundException's message (exit status 3).
using System;
using LibScatter;

internal static class PackageApp
{
    private static int Main()
    {
        try
        {
            float[] sum = Scatter.Elements(new float[4], new long[] { 1, 1, 3 }, new float[] { 1, 1, 1 },
                                           new ScatterOptions(Reduction.Add));
            Console.WriteLine("result " + string.Join(" ", sum));
            Console.WriteLine("loaded: " + ScatterLibrary.LoadedFrom);
            Span<int> grid = new int[] { 1, 2, 3, 4, 5, 6 };
            using (var cpu = new ScatterContext(Backend.Cpu, threads: 2))
            {
                Scatter.Rows<int, int>(grid, new long[] { 3, 2 }, new int[] { 2, 0 }, new long[] { 2 },
                                       new int[] { 70, 80, 90, 100 }, new long[] { 2, 2 }, grid, context: cpu);
                Console.WriteLine("backend " + cpu.Backend);
            }
            Console.WriteLine("span " + string.Join(" ", grid.ToArray()));
            Console.WriteLine("device 0 " + Scatter.Devices()[0].Type);
            return 0;
        }
        catch (DllNotFoundException e)
        {
            Console.WriteLine("DllNotFoundException: " + e.Message);
            return 3;
        }
    }
}
