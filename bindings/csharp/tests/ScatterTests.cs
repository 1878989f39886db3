// Self-checking tests of the C# binding (no test framework needed: runs on Debian's mono).
// Usage: mono ScatterTests.exe <native_layout program>
// Exit status 0 when every check passed. SCATTER_TEST_REQUIRE_VULKAN=1 makes a missing Vulkan
// device a failure instead of a skipped check. SCATTER_TEST_LIBRARY, the path of the library
// under test, lets the loader checks start child processes that find it only through
// SCATTER_LIBRARY (without it they are skipped).
// `mono ScatterTests.exe --load` is such a child: it loads the library and prints where from.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Numerics;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Threading;
using LibScatter;

internal static class ScatterTests
{
    private static int failures;
    private static int checks;

    private static void Check(bool condition, string what)
    {
        ++checks;
        if (condition) return;
        ++failures;
        Console.Error.WriteLine("FAILED: " + what);
    }

    private static void Equal<T>(T[] actual, T[] expected, string what)
    {
        bool same = actual.Length == expected.Length;
        for (int i = 0; same && i < actual.Length; ++i)
            same = EqualityComparer<T>.Default.Equals(actual[i], expected[i]);
        Check(same, what + ": got [" + string.Join(", ", actual) + "], expected [" + string.Join(", ", expected) + "]");
    }

    // Runs body, which must throw the binding's exception for `status`: a ScatterArgumentException
    // for the argument statuses, a ScatterException for the others. Returns it (or null).
    private static IScatterError Throws(Status status, string what, Action body)
    {
        try
        {
            body();
        }
        catch (Exception e)
        {
            var error = e as IScatterError;
            Check(error != null, what + ": threw " + e);
            if (error == null) return null;
            Check(error.Status == status, what + ": status " + error.Status + ", expected " + status);
            bool argument = status == Status.InvalidArgument || status == Status.TypeMismatch ||
                            status == Status.ShapeMismatch || status == Status.IndexOutOfRange;
            Check(argument ? e is ScatterArgumentException && e is ArgumentException : e is ScatterException,
                  what + ": " + status + " thrown as " + e.GetType().Name);
            Check(e.Message.StartsWith(error.StatusName + ": " + error.ErrorMessage), what + ": Message " + e.Message);
            return error;
        }
        Check(false, what + ": no exception, expected " + status);
        return null;
    }

    private static long[] S(params long[] shape) { return shape; }

    private static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "--load") return LoadChild();
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: ScatterTests.exe <native_layout program>");
            return 2;
        }
        Console.WriteLine("libscatter " + Scatter.LibraryVersion);
        layoutProgram = args[0];
        var tests = new Action[] {
            NativeLayout, ReadmeExample, ElementsAxis1, RowsInPlace, NdAdd, AllReductions, DTypes, OpaqueStructs,
            OutOfRangePolicies, Errors, Contexts, Concurrency, Vulkan, ReductionNames,
            OneDimensional, Spans, SpanErrors, ExceptionClasses, StatusNames, Devices, Loader,
        };
        foreach (Action test in tests)
        {
            int before = failures;
            try
            {
                test();
            }
            catch (Exception e)
            {
                Check(false, test.Method.Name + " threw " + e);
            }
            Console.WriteLine((failures == before ? "ok     " : "FAILED ") + test.Method.Name);
        }
        Console.WriteLine(checks + " checks, " + failures + " failed");
        return failures == 0 ? 0 : 1;
    }

    // ---- The binding's declarations match the C compiler's view of the header. ----

    private static readonly Dictionary<string, Type> Structs = new Dictionary<string, Type> {
        { "scatter_tensor", typeof(Native.Tensor) },
        { "scatter_options", typeof(Native.Options) },
        { "scatter_context_desc", typeof(Native.ContextDesc) },
        { "scatter_device_info", typeof(Native.DeviceInfo) },
    };

    // What native_layout prints that this binding does not bind (yet): logging, profiling.
    private static readonly string[] NotBound = { "SCATTER_LOG_", "SCATTER_CONTEXT_FLAG_PROFILE" };

    private static bool IsBound(string name)
    {
        foreach (string prefix in NotBound)
            if (name.StartsWith(prefix)) return false;
        return true;
    }

    private static readonly KeyValuePair<string, Type>[] EnumPrefixes = {
        new KeyValuePair<string, Type>("SCATTER_DTYPE_", typeof(DType)),
        new KeyValuePair<string, Type>("SCATTER_REDUCTION_", typeof(Reduction)),
        new KeyValuePair<string, Type>("SCATTER_OUT_OF_RANGE_", typeof(OutOfRange)),
        new KeyValuePair<string, Type>("SCATTER_BACKEND_", typeof(Backend)),
        new KeyValuePair<string, Type>("SCATTER_DEVICE_TYPE_", typeof(DeviceType)),
        new KeyValuePair<string, Type>("SCATTER_FEATURE_", typeof(DeviceFeatures)),
        new KeyValuePair<string, Type>("SCATTER_ERROR_", typeof(Status)),
    };

    private static string layoutProgram;

    private static void NativeLayout()
    {
        string program = layoutProgram;
        var process = Process.Start(new ProcessStartInfo(program) { UseShellExecute = false, RedirectStandardOutput = true });
        string output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        Check(process.ExitCode == 0, program + " exit status " + process.ExitCode);
        var fieldCounts = new Dictionary<Type, int>();
        int enumerators = 0;
        foreach (string line in output.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries))
        {
            string[] part = line.Trim().Split(' ');
            if (!IsBound(part[1])) continue;
            if (part[0] == "struct")
            {
                Type type = Structs[part[1]];
                Check(Marshal.SizeOf(type).ToString() == part[2],
                      "sizeof(" + part[1] + ") = " + part[2] + ", C# " + Marshal.SizeOf(type));
            }
            else if (part[0] == "field")
            {
                Type type = Structs[part[1]];
                FieldInfo field = type.GetField(part[2].Replace("_", ""),
                                                BindingFlags.Public | BindingFlags.Instance | BindingFlags.IgnoreCase);
                Check(field != null, part[1] + "." + part[2] + " has no C# field");
                if (field == null) continue;
                long offset = (long)Marshal.OffsetOf(type, field.Name);
                Check(offset.ToString() == part[3],
                      "offsetof(" + part[1] + ", " + part[2] + ") = " + part[3] + ", C# " + offset);
                Type fieldType = field.FieldType.IsEnum ? Enum.GetUnderlyingType(field.FieldType) : field.FieldType;
                Check(Marshal.SizeOf(fieldType).ToString() == part[4],
                      "sizeof " + part[1] + "." + part[2] + " = " + part[4] + ", C# " + Marshal.SizeOf(fieldType));
                int n;
                fieldCounts.TryGetValue(type, out n);
                fieldCounts[type] = n + 1;
            }
            else if (part[0] == "enum")
            {
                ++enumerators;
                Check(EnumeratorValue(part[1]) == long.Parse(part[2]), part[1] + " = " + part[2] +
                      ", C# " + EnumeratorValue(part[1]));
            }
        }
        foreach (var entry in Structs)
        {
            int n;
            fieldCounts.TryGetValue(entry.Value, out n);
            Check(entry.Value.GetFields(BindingFlags.Public | BindingFlags.Instance).Length == n,
                  entry.Key + ": C has " + n + " fields, C# " + entry.Value.GetFields().Length);
        }
        Check(enumerators > 40, "native_layout printed " + enumerators + " enumerators");
    }

    // The C# value of a C enumerator or flag constant, or long.MinValue when there is none.
    private static long EnumeratorValue(string name)
    {
        if (name == "SCATTER_OK") return (long)Status.Ok;
        foreach (var prefix in EnumPrefixes)
        {
            if (!name.StartsWith(prefix.Key)) continue;
            string member = name.Substring(prefix.Key.Length).Replace("_", "");
            foreach (string candidate in Enum.GetNames(prefix.Value))
                if (string.Equals(candidate, member, StringComparison.OrdinalIgnoreCase))
                    return Convert.ToInt64(Enum.Parse(prefix.Value, candidate));
            return long.MinValue;
        }
        FieldInfo constant = typeof(Native).GetField(name.Substring("SCATTER_".Length).Replace("_", ""),
                                                      BindingFlags.Public | BindingFlags.Static | BindingFlags.IgnoreCase);
        return constant == null ? long.MinValue : Convert.ToInt64(constant.GetValue(null));
    }

    // ---- The three operations ----

    private static void ReadmeExample()
    {
        float[] data = new float[4];
        float[] result = Scatter.Elements(data, S(4), new long[] { 1, 1, 3 }, S(3), new float[] { 1, 1, 1 }, S(3),
                                          new ScatterOptions(Reduction.Add));
        Equal(result, new float[] { 0, 2, 0, 1 }, "elements add with a duplicate");
        Equal(data, new float[4], "data untouched without output");
    }

    // ONNX ScatterElements example 2: axis 1.
    private static void ReductionNames()
    {
        Check(Scatter.ParseReduction("sum") == Reduction.Add, "sum is add");
        Check(Scatter.ParseReduction("prod") == Reduction.Mul, "prod is mul");
        Check(Scatter.ParseReduction("multiply") == Reduction.Mul, "multiply is mul");
        Check(Scatter.ParseReduction("amax") == Reduction.Max, "amax is max");
        Check(Scatter.ParseReduction("amin") == Reduction.Min, "amin is min");
        Check(Scatter.ParseReduction("mean") == Reduction.Mean, "mean is mean");
        try
        {
            Scatter.ParseReduction("xor");
            Check(false, "xor parsed");
        }
        catch (ScatterArgumentException e)
        {
            Check(e.ErrorMessage.StartsWith("reduction \"xor\" is not one of none"), "xor message: " + e.ErrorMessage);
            Check(e.Status == Status.InvalidArgument && e.ParamName == "name", "xor: " + e.Status + " " + e.ParamName);
        }
    }

    private static void ElementsAxis1()
    {
        double[] data = { 1, 2, 3, 4, 5 };
        double[] result = Scatter.Elements(data, S(1, 5), new int[] { 1, 3 }, S(1, 2), new double[] { 1.1, 2.1 }, S(1, 2),
                                           new ScatterOptions(Reduction.None, axis: 1));
        Equal(result, new double[] { 1, 1.1, 3, 2.1, 5 }, "elements axis 1");
        result = Scatter.Elements(data, S(1, 5), new long[] { -4, -4 }, S(1, 2), new double[] { 1.1, 2.1 }, S(1, 2),
                                  new ScatterOptions(Reduction.None, axis: -1));
        Equal(result, new double[] { 1, 2.1, 3, 4, 5 }, "elements negative indices and axis, last wins");
    }

    private static void RowsInPlace()
    {
        int[] data = { 1, 2, 3, 4, 5, 6 };
        int[] same = Scatter.Rows(data, S(3, 2), new int[] { 2, 0 }, S(2), new int[] { 70, 80, 90, 100 }, S(2, 2),
                                  output: data);
        Check(ReferenceEquals(same, data), "rows in place returns data");
        Equal(data, new int[] { 90, 100, 3, 4, 70, 80 }, "rows in place");
        long[] rows = { 0, 0, 0, 0, 0, 0 };
        Scatter.Rows(rows, S(2, 3), new long[] { 2, 0, 2 }, S(3), new long[] { 1, 2, 3, 4, 5, 6 }, S(2, 3),
                     new ScatterOptions(Reduction.Add, axis: 1), output: rows);
        Equal(rows, new long[] { 2, 0, 4, 5, 0, 10 }, "rows add on axis 1");
    }

    // ONNX ScatterND example 1 with add and a duplicate.
    private static void NdAdd()
    {
        long[] data = { 1, 2, 3, 4, 5, 6, 7, 8 };
        long[] result = Scatter.Nd(data, S(8), new long[] { 4, 3, 1, 7, 4 }, S(5, 1), new long[] { 9, 10, 11, 12, 100 }, S(5),
                                   new ScatterOptions(Reduction.Add));
        Equal(result, new long[] { 1, 13, 3, 14, 114, 6, 7, 20 }, "nd add");
        float[] grid = new float[6];
        Scatter.Nd(grid, S(2, 3), new int[] { 1, 2, 0, 0 }, S(2, 2), new float[] { 5, 7 }, S(2), output: grid);
        Equal(grid, new float[] { 7, 0, 0, 0, 0, 5 }, "nd points in place");
    }

    // Every reduction, with and without exclude_self, against a sequential reference, for a
    // float and an integer type.
    private static void AllReductions()
    {
        double[] data = { 5, -3, 8, 2, 7 };
        long[] indices = { 1, 3, 1, 0, 3, 1 };
        double[] updates = { 2, -4, 0.5, 3, 6, -1 };
        int[] idata = { 5, -3, 8, 2, 7 };
        int[] iupdates = { 2, -4, 3, 3, 6, -1 };
        Reduction[] reductions = { Reduction.None, Reduction.Add, Reduction.Sub, Reduction.Mul, Reduction.Div,
                                   Reduction.Max, Reduction.Min, Reduction.Mean };
        foreach (Reduction reduction in reductions)
        {
            foreach (bool excludeSelf in new[] { false, true })
            {
                var options = new ScatterOptions(reduction, excludeSelf: excludeSelf);
                string name = reduction + (excludeSelf ? " exclude_self" : "");
                Equal(Scatter.Elements(data, S(5), indices, S(6), updates, S(6), options),
                      Reference(data, indices, updates, reduction, excludeSelf, false),
                      "f64 " + name);
                Equal(Scatter.Elements(idata, S(5), indices, S(6), iupdates, S(6), options),
                      Reference(idata, indices, iupdates, reduction, excludeSelf, true),
                      "i32 " + name);
            }
        }
    }

    // Applies the updates one by one in index order, in double arithmetic (exact for these
    // values); integer division truncates and integer means floor, as the library specifies.
    private static T[] Reference<T>(T[] data, long[] indices, T[] updates, Reduction reduction, bool excludeSelf,
                                    bool integer)
    {
        double[] t = Array.ConvertAll(data, v => Convert.ToDouble(v));
        int[] count = new int[data.Length];
        for (int i = 0; i < indices.Length; ++i)
        {
            long target = indices[i];
            double u = Convert.ToDouble(updates[i]);
            if (count[target]++ == 0 && excludeSelf) t[target] = Identity(reduction);
            switch (reduction)
            {
                case Reduction.None: t[target] = u; break;
                case Reduction.Add: case Reduction.Mean: t[target] += u; break;
                case Reduction.Sub: t[target] -= u; break;
                case Reduction.Mul: t[target] *= u; break;
                case Reduction.Div: t[target] = integer ? Math.Truncate(t[target] / u) : t[target] / u; break;
                case Reduction.Max: t[target] = Math.Max(t[target], u); break;
                case Reduction.Min: t[target] = Math.Min(t[target], u); break;
            }
        }
        T[] result = new T[data.Length];
        for (int i = 0; i < data.Length; ++i)
        {
            double v = t[i];
            if (reduction == Reduction.Mean && count[i] > 0)
            {
                v /= count[i] + (excludeSelf ? 0 : 1);
                if (integer) v = Math.Floor(v);
            }
            result[i] = (T)Convert.ChangeType(v, typeof(T));
        }
        return result;
    }

    private static double Identity(Reduction reduction)
    {
        switch (reduction)
        {
            case Reduction.Mul: case Reduction.Div: return 1;
            case Reduction.Max: return double.NegativeInfinity;
            case Reduction.Min: return double.PositiveInfinity;
            default: return 0;
        }
    }

    private static void DTypes()
    {
        Equal(Scatter.Elements(new sbyte[] { 100, 0 }, S(2), new int[] { 0 }, S(1), new sbyte[] { 100 }, S(1),
                               new ScatterOptions(Reduction.Add)),
              new sbyte[] { -56, 0 }, "i8 add wraps");
        Equal(Scatter.Rows(new short[] { 1, 2, 3 }, S(3), new int[] { 2 }, S(1), new short[] { -9 }, S(1),
                           new ScatterOptions(Reduction.Min)),
              new short[] { 1, 2, -9 }, "i16 min");
        Equal(Scatter.Nd(new byte[] { 1, 2, 3, 4 }, S(2, 2), new long[] { 1, 0 }, S(1, 2), new byte[] { 200 }, S(1),
                         new ScatterOptions(Reduction.Mul)),
              new byte[] { 1, 2, 88, 4 }, "u8 mul wraps");
        Equal(Scatter.Elements(new ushort[] { 10, 10 }, S(2), new int[] { 1 }, S(1), new ushort[] { 3 }, S(1),
                               new ScatterOptions(Reduction.Div)),
              new ushort[] { 10, 3 }, "u16 div truncates");
        Equal(Scatter.Elements(new uint[] { 0, 0 }, S(2), new int[] { 1, 1 }, S(2), new uint[] { 1, 2 }, S(2),
                               new ScatterOptions(Reduction.Sub)),
              new uint[] { 0, uint.MaxValue - 2 }, "u32 sub wraps");
        Equal(Scatter.Elements(new ulong[] { 7, 9 }, S(2), new int[] { 0 }, S(1), new ulong[] { ulong.MaxValue }, S(1),
                               new ScatterOptions(Reduction.Max)),
              new ulong[] { ulong.MaxValue, 9 }, "u64 max is unsigned");
        Equal(Scatter.Elements(new bool[] { false, true, false }, S(3), new int[] { 0, 2 }, S(2), new bool[] { true, false }, S(2),
                               new ScatterOptions(Reduction.Add)),
              new bool[] { true, true, false }, "bool add is or");
        Equal(Scatter.Elements(new bool[] { true, true }, S(2), new int[] { 1 }, S(1), new bool[] { false }, S(1),
                               new ScatterOptions(Reduction.Mul)),
              new bool[] { true, false }, "bool mul is and");
        Equal(Scatter.Elements(new[] { new Complex(1, 1), Complex.One }, S(2), new int[] { 0 }, S(1),
                               new[] { new Complex(0, 1) }, S(1), new ScatterOptions(Reduction.Mul)),
              new[] { new Complex(-1, 1), Complex.One }, "c128 mul");
        Equal(Scatter.Elements(new[] { DayOfWeek.Monday, DayOfWeek.Friday }, S(2), new int[] { 1 }, S(1),
                               new[] { DayOfWeek.Sunday }, S(1)),
              new[] { DayOfWeek.Monday, DayOfWeek.Sunday }, "enum elements as their underlying type");
        Equal(Scatter.Elements(new float[0], S(0, 3), new int[0], S(0, 3), new float[0], S(0, 3)),
              new float[0], "zero-size tensors");
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct Particle
    {
        public float X, Y, Z;
        public byte Kind;
        public override string ToString() { return "(" + X + "," + Y + "," + Z + "," + Kind + ")"; }
    }

    private static void OpaqueStructs()
    {
        var data = new Particle[3];
        var updates = new[] { new Particle { X = 1, Y = 2, Z = 3, Kind = 4 }, new Particle { X = 5, Kind = 6 } };
        Scatter.Rows(data, S(3), new int[] { 2, 0 }, S(2), updates, S(2), output: data);
        Equal(data, new[] { updates[1], new Particle(), updates[0] }, "opaque struct rows in place");
        Throws(Status.Unsupported, "opaque add", () =>
            Scatter.Rows(data, S(3), new int[] { 0 }, S(1), new Particle[1], S(1), new ScatterOptions(Reduction.Add)));
    }

    private static void OutOfRangePolicies()
    {
        float[] data = { 1, 2, 3 };
        Equal(Scatter.Elements(data, S(3), new int[] { 5, 1, -7 }, S(3), new float[] { 10, 20, 30 }, S(3),
                               new ScatterOptions(Reduction.Add, outOfRange: OutOfRange.Skip)),
              new float[] { 1, 22, 3 }, "skip");
        Equal(Scatter.Elements(data, S(3), new int[] { 5, 1, -7 }, S(3), new float[] { 10, 20, 30 }, S(3),
                               new ScatterOptions(Reduction.Add, outOfRange: OutOfRange.Clamp)),
              new float[] { 31, 22, 13 }, "clamp");
        Equal(Scatter.Rows(new int[] { 1, 2, 3, 4 }, S(2, 2), new int[] { 9, 0 }, S(2), new int[] { 5, 5, 6, 6 }, S(2, 2),
                           new ScatterOptions(Reduction.None, outOfRange: OutOfRange.Skip, excludeSelf: true)),
              new int[] { 6, 6, 3, 4 }, "rows skip drops the whole slice");
    }

    // ---- Errors: the exception carries the status and the message, and nothing is written. ----

    private static void Errors()
    {
        float[] data = { 1, 2, 3 };
        float[] output = { -1, -1, -1 };
        IScatterError e = Throws(Status.IndexOutOfRange, "index 7 of 3", () =>
            Scatter.Elements(data, S(3), new int[] { 0, 7 }, S(2), new float[] { 5, 6 }, S(2), output: output));
        if (e != null)
        {
            Check(e.StatusName == "SCATTER_ERROR_INDEX_OUT_OF_RANGE", "status name " + e.StatusName);
            Check(e.ErrorMessage.Contains("indices[1] = 7 is outside [-3, 3)"), "message: " + e.ErrorMessage);
            Check(((Exception)e).Message == e.StatusName + ": " + e.ErrorMessage, "Message: " + ((Exception)e).Message);
        }
        Equal(output, new float[] { -1, -1, -1 }, "output unchanged after an error");

        int[] inPlace = { 4, 4 };
        e = Throws(Status.InvalidArgument, "integer division by zero", () =>
            Scatter.Elements(inPlace, S(2), new int[] { 1, 0 }, S(2), new int[] { 2, 0 }, S(2),
                             new ScatterOptions(Reduction.Div), output: inPlace));
        Equal(inPlace, new int[] { 4, 4 }, "in-place data unchanged after an error");

        Throws(Status.TypeMismatch, "float indices", () =>
            Scatter.Elements(data, S(3), new float[] { 0 }, S(1), new float[] { 1 }, S(1)));
        Throws(Status.ShapeMismatch, "rows updates of the wrong shape", () =>
            Scatter.Rows(data, S(3), new int[] { 0, 1 }, S(2), new float[] { 1, 2, 3 }, S(3)));
        Throws(Status.InvalidArgument, "axis 1 of a vector", () =>
            Scatter.Elements(data, S(3), new int[] { 0 }, S(1), new float[] { 1 }, S(1),
                             new ScatterOptions(Reduction.None, axis: 1)));
        Throws(Status.Unsupported, "bool max", () =>
            Scatter.Elements(new bool[2], S(2), new int[] { 0 }, S(1), new bool[1], S(1), new ScatterOptions(Reduction.Max)));
        Throws(Status.InvalidArgument, "updates as output", () =>
            Scatter.Elements(data, S(3), new int[] { 0, 1, 2 }, S(3), output, S(3), output: output));
        e = Throws(Status.ShapeMismatch, "array shorter than its shape (checked by the binding)", () =>
            Scatter.Elements(data, S(4), new int[] { 0 }, S(1), new float[] { 1 }, S(1)));
        if (e != null) Check(e.StatusName == "SCATTER_ERROR_SHAPE_MISMATCH", "binding error status name " + e.StatusName);
        Throws(Status.ShapeMismatch, "output of another length", () =>
            Scatter.Elements(data, S(3), new int[] { 0 }, S(1), new float[] { 1 }, S(1), output: new float[2]));
        try
        {
            Scatter.Elements(null, S(3), new int[] { 0 }, S(1), new float[] { 1 }, S(1));
            Check(false, "null data accepted");
        }
        catch (ArgumentNullException)
        {
        }
    }

    // ---- Contexts ----

    private static void Contexts()
    {
        using (var cpu = new ScatterContext(Backend.Cpu, threads: 2))
        {
            Check(cpu.Backend == Backend.Cpu, "cpu context backend " + cpu.Backend);
            Equal(Scatter.Elements(new double[] { 1, 2 }, S(2), new int[] { 1 }, S(1), new double[] { 5 }, S(1),
                                   new ScatterOptions(Reduction.Add), cpu),
                  new double[] { 1, 7 }, "explicit context");
        }
        var disposed = new ScatterContext(Backend.Cpu);
        disposed.Dispose();
        disposed.Dispose();
        try
        {
            Scatter.Elements(new double[] { 1 }, S(1), new int[] { 0 }, S(1), new double[] { 5 }, S(1), context: disposed);
            Check(false, "a disposed context was used");
        }
        catch (ObjectDisposedException)
        {
        }
        Throws(Status.InvalidArgument, "unknown backend", () => new ScatterContext((Backend)42));
        Check(Scatter.SharedContext.Backend != Backend.Auto, "shared context resolved its backend");
    }

    // One context from several threads at once (each thread its own output), the C API's rule;
    // odd threads go through spans (pinned with fixed), and a collector thread keeps moving
    // whatever is not pinned.
    private static void Concurrency()
    {
        using (var context = new ScatterContext(Backend.Cpu, threads: 2))
        {
            const int n = 1 << 16;
            var errors = new int[4];
            var threads = new Thread[4];
            for (int t = 0; t < threads.Length; ++t)
            {
                int id = t;
                threads[t] = new Thread(() =>
                {
                    var indices = new int[n];
                    var updates = new float[n];
                    for (int i = 0; i < n; ++i) { indices[i] = (i * 7 + id) % 1000; updates[i] = 1; }
                    for (int repeat = 0; repeat < 20; ++repeat)
                    {
                        float[] result = new float[1000];
                        if (id % 2 == 0)
                            result = Scatter.Elements(result, S(1000), indices, S(n), updates, S(n),
                                                      new ScatterOptions(Reduction.Add), context);
                        else
                            Scatter.Elements<float, int>(new float[1000], indices, updates, result,
                                                         new ScatterOptions(Reduction.Add), context);
                        float total = 0;
                        foreach (float v in result) total += v;
                        if (total != n) ++errors[id];
                    }
                });
                threads[t].Start();
            }
            bool done = false;
            var collector = new Thread(() =>
            {
                while (!Volatile.Read(ref done))
                {
                    GC.KeepAlive(new byte[4096]);
                    GC.Collect();
                    Thread.Sleep(1);
                }
            });
            collector.Start();
            foreach (Thread thread in threads) thread.Join();
            Volatile.Write(ref done, true);
            collector.Join();
            Equal(errors, new int[4], "concurrent calls on one context");
        }
    }

    // ---- Vulkan (lavapipe in CI): bitwise equal to the CPU. ----

    private static void Vulkan()
    {
        ScatterContext gpu;
        try
        {
            gpu = new ScatterContext(Backend.Vulkan);
        }
        catch (ScatterException e)
        {
            bool required = Environment.GetEnvironmentVariable("SCATTER_TEST_REQUIRE_VULKAN") == "1";
            Check(!required && e.Status == Status.BackendUnavailable, "no Vulkan context: " + e.Message);
            Console.WriteLine("skipped Vulkan: " + e.Message);
            return;
        }
        using (gpu)
        using (var cpu = new ScatterContext(Backend.Cpu))
        {
            Check(gpu.Backend == Backend.Vulkan, "vulkan context backend " + gpu.Backend);
            var data = new float[64];
            var indices = new long[200];
            var updates = new float[200];
            for (int i = 0; i < 200; ++i) { indices[i] = (i * 37) % 64 - 32; updates[i] = 0.1f * i - 3; }
            var options = new ScatterOptions(Reduction.Add);
            Equal(Scatter.Elements(data, S(64), indices, S(200), updates, S(200), options, gpu),
                  Scatter.Elements(data, S(64), indices, S(200), updates, S(200), options, cpu),
                  "vulkan add equals cpu bitwise");
            float[] untouched = { 9, 9, 9 };
            Throws(Status.IndexOutOfRange, "vulkan index error", () =>
                Scatter.Elements(new float[3], S(3), new long[] { 3 }, S(1), new float[] { 1 }, S(1), context: gpu,
                                 output: untouched));
            Equal(untouched, new float[] { 9, 9, 9 }, "vulkan output unchanged after an error");
        }
    }
    // ---- 1-D overloads: no shape arrays ----

    private static void OneDimensional()
    {
        float[] data = new float[4];
        Equal(Scatter.Elements(data, new long[] { 1, 1, 3 }, new float[] { 1, 1, 1 }, new ScatterOptions(Reduction.Add)),
              new float[] { 0, 2, 0, 1 }, "1-D elements add");
        Equal(data, new float[4], "1-D data untouched without output");
        int[] rows = { 1, 2, 3 };
        int[] same = Scatter.Rows(rows, new int[] { 2, 0 }, new int[] { 7, 8 }, output: rows);
        Check(ReferenceEquals(same, rows), "1-D rows in place returns data");
        Equal(rows, new int[] { 8, 2, 7 }, "1-D rows in place");
        Equal(Scatter.Nd(new long[] { 1, 2, 3, 4, 5, 6, 7, 8 }, new long[] { 4, 3, 1, 7, 4 },
                         new long[] { 9, 10, 11, 12, 100 }, new ScatterOptions(Reduction.Add)),
              new long[] { 1, 13, 3, 14, 114, 6, 7, 20 }, "1-D nd: indices as [n, 1]");
        using (var cpu = new ScatterContext(Backend.Cpu, threads: 1))
        {
            Equal(Scatter.Elements(new double[] { 1, 2 }, new int[] { -1 }, new double[] { 5 },
                                   new ScatterOptions(Reduction.Max), cpu),
                  new double[] { 1, 5 }, "1-D with a context and a negative index");
        }
        Equal(Scatter.Elements(new float[0], new int[0], new float[0]), new float[0], "1-D empty");
        Throws(Status.ShapeMismatch, "1-D indices and updates of different lengths", () =>
            Scatter.Elements(new float[3], new int[] { 0, 1 }, new float[] { 1 }));
        Throws(Status.IndexOutOfRange, "1-D index out of range", () =>
            Scatter.Rows(new float[3], new int[] { 3 }, new float[] { 1 }));
        var e = Throws(Status.ShapeMismatch, "1-D output of another length", () =>
            Scatter.Elements(new float[3], new int[] { 0 }, new float[] { 1 }, output: new float[2]));
        Check(e is ScatterArgumentException && ((ScatterArgumentException)e).ParamName == "output",
              "output length error names output");
        try
        {
            Scatter.Elements(new float[3], (int[])null, new float[] { 1 });
            Check(false, "1-D null indices accepted");
        }
        catch (ArgumentNullException n)
        {
            Check(n.ParamName == "indices", "null indices ParamName " + n.ParamName);
        }
    }

    // ---- Span<T> / ReadOnlySpan<T> ----

    private static void Spans()
    {
        // A window of a larger array in, another window out: offsets without copies.
        float[] big = { 9, 0, 0, 0, 0, 9 };
        float[] result = { -1, -1, -1, -1, -1, -1 };
        Scatter.Elements<float, long>(new ReadOnlySpan<float>(big, 1, 4), new long[] { 1, 1, 3 }, new float[] { 1, 1, 1 },
                                      new Span<float>(result, 2, 4), new ScatterOptions(Reduction.Add));
        Equal(result, new float[] { -1, -1, 0, 2, 0, 1 }, "1-D span elements into a window");
        Equal(big, new float[] { 9, 0, 0, 0, 0, 9 }, "span data untouched");

        // In place: output is data's memory.
        Span<int> grid = new int[] { 1, 2, 3, 4, 5, 6 };
        Scatter.Rows<int, int>(grid, new long[] { 3, 2 }, new int[] { 2, 0 }, new long[] { 2 },
                               new int[] { 70, 80, 90, 100 }, new long[] { 2, 2 }, grid);
        Equal(grid.ToArray(), new int[] { 90, 100, 3, 4, 70, 80 }, "span rows in place");

        Span<long> nd = new long[] { 1, 2, 3, 4, 5, 6, 7, 8 };
        Scatter.Nd<long, long>(nd, new long[] { 4, 3, 1, 7, 4 }, new long[] { 9, 10, 11, 12, 100 }, nd,
                               new ScatterOptions(Reduction.Add));
        Equal(nd.ToArray(), new long[] { 1, 13, 3, 14, 114, 6, 7, 20 }, "1-D span nd in place");

        float[] g2 = new float[6];
        Scatter.Nd<float, int>(g2, new long[] { 2, 3 }, new int[] { 1, 2, 0, 0 }, new long[] { 2, 2 },
                               new float[] { 5, 7 }, new long[] { 2 }, g2);
        Equal(g2, new float[] { 7, 0, 0, 0, 0, 5 }, "span nd with shapes");

        double[] d = { 1, 2, 3, 4, 5 };
        double[] o = new double[5];
        using (var cpu = new ScatterContext(Backend.Cpu, threads: 1))
        {
            Scatter.Elements<double, int>(d, new long[] { 1, 5 }, new int[] { 1, 3 }, new long[] { 1, 2 },
                                          new double[] { 1.1, 2.1 }, new long[] { 1, 2 }, o,
                                          new ScatterOptions(Reduction.None, axis: 1), cpu);
        }
        Equal(o, new double[] { 1, 1.1, 3, 2.1, 5 }, "span elements axis 1 with a context");

        var particles = new Particle[3];
        Scatter.Rows<Particle, int>(particles, new int[] { 1 }, new[] { new Particle { X = 4, Kind = 2 } }, particles);
        Equal(particles, new[] { new Particle(), new Particle { X = 4, Kind = 2 }, new Particle() }, "span opaque rows");

        bool[] flags = new bool[3];
        Scatter.Elements<bool, long>(flags, new long[] { 2 }, new bool[] { true }, flags, new ScatterOptions(Reduction.Add));
        Equal(flags, new bool[] { false, false, true }, "span bool");

        Scatter.Elements<float, int>(ReadOnlySpan<float>.Empty, ReadOnlySpan<int>.Empty, ReadOnlySpan<float>.Empty,
                                     Span<float>.Empty);
        Check(true, "empty spans");
    }

    private static void SpanErrors()
    {
        float[] output = { -1, -1, -1 };
        Throws(Status.IndexOutOfRange, "span index error", () =>
            Scatter.Elements<float, int>(new float[3], new int[] { 3 }, new float[] { 1 }, output));
        Equal(output, new float[] { -1, -1, -1 }, "span output unchanged after an error");
        var e = Throws(Status.ShapeMismatch, "span output shorter than data", () =>
            Scatter.Elements<float, int>(new float[3], new int[] { 0 }, new float[] { 1 }, new float[2]));
        Check(e is ScatterArgumentException && ((ScatterArgumentException)e).ParamName == "output", "span output ParamName");
        e = Throws(Status.ShapeMismatch, "span shape naming more than the span holds", () =>
            Scatter.Rows<float, int>(new float[3], new long[] { 2, 2 }, new int[] { 0 }, new long[] { 1 },
                                     new float[] { 1, 1 }, new long[] { 1, 2 }, new float[3]));
        Check(e is ScatterArgumentException && ((ScatterArgumentException)e).ParamName == "data" &&
              e.ErrorMessage == "data has 3 elements, its shape [2, 2] names 4", "span shape error: " + e.ErrorMessage);
        e = Throws(Status.ShapeMismatch, "negative dimension", () =>
            Scatter.Rows<float, int>(new float[0], new long[] { -1 }, new int[0], new long[] { 0 },
                                     new float[0], new long[] { 0 }, new float[0]));
        Check(((ScatterArgumentException)e).ParamName == "dataShape", "negative dimension names dataShape");
        Throws(Status.ShapeMismatch, "rank 17", () =>
            Scatter.Elements<float, int>(new float[1], new long[17], new int[1], new long[] { 1 },
                                         new float[1], new long[] { 1 }, new float[1]));
        Throws(Status.InvalidArgument, "span updates overlapping the output", () =>
        {
            float[] shared = new float[4];
            Scatter.Elements<float, int>(new float[2], new int[] { 0, 1 }, new ReadOnlySpan<float>(shared, 0, 2),
                                         new Span<float>(shared, 1, 2));
        });
        Throws(Status.Unsupported, "span opaque add", () =>
            Scatter.Rows<Particle, int>(new Particle[1], new int[] { 0 }, new Particle[1], new Particle[1],
                                        new ScatterOptions(Reduction.Add)));
        Throws(Status.Unsupported, "a struct holding a reference", () =>
            Scatter.Rows(new Holder[1], new int[] { 0 }, new Holder[1]));
    }

    private struct Holder
    {
        public string Text;
    }

    // ---- Exception classes: argument errors are ArgumentExceptions ----

    private static void ExceptionClasses()
    {
        try
        {
            Scatter.Elements(new float[3], new int[] { 5 }, new float[] { 1 });
            Check(false, "no exception for index 5 of 3");
        }
        catch (ArgumentException e)
        {
            var s = e as ScatterArgumentException;
            Check(s != null && s.Status == Status.IndexOutOfRange && s.ParamName == null,
                  "library argument error as ScatterArgumentException: " + e);
        }
        try
        {
            new ScatterContext(Backend.Cpu, threads: -1);
            Check(false, "threads -1 accepted");
        }
        catch (ScatterArgumentException e)
        {
            Check(e.Status == Status.InvalidArgument && e.ParamName == "threads", "threads -1: " + e.Status + " " + e.ParamName);
        }
        try
        {
            Scatter.Elements(new bool[2], new int[] { 0 }, new bool[1], new ScatterOptions(Reduction.Max));
            Check(false, "bool max accepted");
        }
        catch (ArgumentException e)
        {
            Check(false, "Unsupported thrown as an ArgumentException: " + e);
        }
        catch (ScatterException e)
        {
            Check(e.Status == Status.Unsupported && e.StatusName == "SCATTER_ERROR_UNSUPPORTED", "unsupported: " + e.StatusName);
        }
        Check(ScatterException.IsArgumentStatus(Status.ShapeMismatch) && !ScatterException.IsArgumentStatus(Status.DeviceLost),
              "IsArgumentStatus");
        try
        {
            ScatterException.Check(Status.BackendUnavailable);
            Check(false, "Check(BackendUnavailable) did not throw");
        }
        catch (ScatterException e)
        {
            Check(e.Status == Status.BackendUnavailable, "Check(BackendUnavailable): " + e.Status);
        }
        ScatterException.Check(Status.Ok);
    }

    // The binding's own table of status names (used before the library is loaded) is the library's.
    private static void StatusNames()
    {
        foreach (Status status in Enum.GetValues(typeof(Status)))
        {
            string native = Native.Utf8(Native.scatter_status_name(status));
            Check(ScatterException.NameOf(status) == native, status + ": " + ScatterException.NameOf(status) + " vs " + native);
        }
        Check(ScatterException.NameOf((Status)77) == Native.Utf8(Native.scatter_status_name((Status)77)), "unknown status name");
    }

    // ---- Devices ----

    private static void Devices()
    {
        Device[] devices = Scatter.Devices();
        Check(devices.Length >= 1, devices.Length + " devices");
        if (devices.Length == 0) return;
        Device cpu = devices[0];
        Check(cpu.Backend == Backend.Cpu && cpu.Type == DeviceType.Cpu && cpu.Index == 0, "device 0 is the CPU: " + cpu);
        Check(cpu.ThreadCount >= 1 && cpu.MaxBufferRange == ulong.MaxValue && cpu.ApiVersion == 0,
              "CPU threads " + cpu.ThreadCount + ", max range " + cpu.MaxBufferRange);
        Check(cpu.Name.Length > 0 && cpu.Name.IndexOf('\0') < 0, "CPU name \"" + cpu.Name + "\"");
        for (int i = 1; i < devices.Length; ++i)
        {
            Check(devices[i].Backend == Backend.Vulkan && devices[i].Index == i - 1 && devices[i].ApiVersion != 0,
                  "device " + i + ": " + devices[i] + " api " + devices[i].ApiVersion);
            Console.WriteLine("device " + devices[i] + " features " + devices[i].Features);
        }
        bool vulkan;
        try
        {
            new ScatterContext(Backend.Vulkan).Dispose();
            vulkan = true;
        }
        catch (ScatterException)
        {
            vulkan = false;
        }
        Check(!vulkan || devices.Length >= 2, "a Vulkan context exists but only the CPU is listed");
        uint count = 0;
        Check(Native.scatter_devices(null, ref count) == Status.Ok && count == devices.Length, "raw count " + count);
        var raw = new Native.DeviceInfo[1];
        raw[0].StructSize = 8;
        Check(Native.scatter_devices(raw, ref count) == Status.InvalidArgument, "a bad struct_size is refused");
    }

    // ---- Finding the library ----

    // The child process of the loader checks: an argument error needs no library; then it loads.
    private static int LoadChild()
    {
        try
        {
            Scatter.Elements(new float[3], new long[] { 4 }, new int[] { 0 }, new long[] { 1 }, new float[] { 1 }, new long[] { 1 });
            Console.WriteLine("no argument error");
        }
        catch (ScatterArgumentException e)
        {
            Console.WriteLine("argument error before loading: " + e.StatusName);
        }
        try
        {
            float[] result = Scatter.Elements(new float[4], new long[] { 1, 1, 3 }, new float[] { 1, 1, 1 },
                                              new ScatterOptions(Reduction.Add));
            Console.WriteLine("result " + string.Join(" ", result));
            Console.WriteLine("loaded: " + ScatterLibrary.LoadedFrom);
            return 0;
        }
        catch (DllNotFoundException e)
        {
            Console.WriteLine("DllNotFoundException: " + e.Message);
            // The same explanation again, not a bare "scatter", when asked a second time.
            try
            {
                new ScatterContext(Backend.Cpu);
            }
            catch (DllNotFoundException again)
            {
                Console.WriteLine("again: " + (again.Message == e.Message));
            }
            return 3;
        }
    }

    private static string RunLoadChild(string scatterLibrary, out int exitCode)
    {
        var start = new ProcessStartInfo(Process.GetCurrentProcess().MainModule.FileName,
                                         "--debug \"" + Assembly.GetExecutingAssembly().Location + "\" --load")
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
        };
        start.EnvironmentVariables.Remove("LD_LIBRARY_PATH");
        start.EnvironmentVariables.Remove("DYLD_LIBRARY_PATH");
        start.EnvironmentVariables.Remove(ScatterLibrary.EnvironmentVariable);
        if (scatterLibrary != null) start.EnvironmentVariables[ScatterLibrary.EnvironmentVariable] = scatterLibrary;
        using (Process child = Process.Start(start))
        {
            string output = child.StandardOutput.ReadToEnd();
            child.WaitForExit();
            exitCode = child.ExitCode;
            return output;
        }
    }

    private static void Loader()
    {
        Check(ScatterLibrary.LoadedFrom != null, "LoadedFrom after use: " + ScatterLibrary.LoadedFrom);
        Check(ScatterLibrary.Load() == ScatterLibrary.LoadedFrom, "Load() again returns LoadedFrom");
        Check(ScatterLibrary.FileName == "libscatter.so" || !RuntimeInformation.IsOSPlatform(OSPlatform.Linux),
              "file name " + ScatterLibrary.FileName);
        Check(ScatterLibrary.RuntimeIdentifier != null, "runtime identifier " + ScatterLibrary.RuntimeIdentifier);
        Console.WriteLine("loaded from " + ScatterLibrary.LoadedFrom + ", runtime identifier " +
                          ScatterLibrary.RuntimeIdentifier);

        string library = Environment.GetEnvironmentVariable("SCATTER_TEST_LIBRARY");
        if (string.IsNullOrEmpty(library))
        {
            Console.WriteLine("skipped the loader's child processes: SCATTER_TEST_LIBRARY is not set");
            return;
        }
        int code;
        // SCATTER_LIBRARY alone finds it: no library path.
        string output = RunLoadChild(library, out code);
        Check(code == 0 && output.Contains("result 0 2 0 1") &&
              output.Contains("loaded: " + Path.GetFullPath(library)), "SCATTER_LIBRARY=" + library + ": " + output);
        Check(output.Contains("argument error before loading: SCATTER_ERROR_SHAPE_MISMATCH"), "argument error: " + output);

        // A wrong SCATTER_LIBRARY is an error that names it, with no fallback.
        string missing = Path.Combine(Path.GetTempPath(), "no-such-dir-" + Guid.NewGuid().ToString("N"), "libscatter.so");
        output = RunLoadChild(missing, out code);
        Check(code == 3 && output.Contains("DllNotFoundException: libscatter could not be loaded from SCATTER_LIBRARY=" +
                                           missing + ": ") &&
              output.Contains("never replaced by another library") && output.Contains("again: True"),
              "SCATTER_LIBRARY=" + missing + ": " + output);

        // A library that is not libscatter.
        if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
        {
            output = RunLoadChild("libm.so.6", out code);
            Check(code == 3 && output.Contains("DllNotFoundException: libm.so.6 loaded but is not libscatter: " +
                                               "it has no scatter_version"), "SCATTER_LIBRARY=libm.so.6: " + output);
        }

        // Nothing anywhere: the message lists every place, in order.
        output = RunLoadChild(null, out code);
        if (code == 0 && output.Contains("loaded: system:"))
        {
            Console.WriteLine("skipped the not-found message: a libscatter is installed on the system (" + output.Trim() + ")");
            return;
        }
        string here = Path.GetDirectoryName(Path.GetFullPath(typeof(Scatter).Assembly.Location));
        string rid = ScatterLibrary.RuntimeIdentifier;
        string up = Path.GetFullPath(Path.Combine(Path.Combine(here, ".."), ".."));
        string[] expected = {
            "DllNotFoundException: libscatter was not found. The C# binding looked in these places, in this order:",
            "  1. SCATTER_LIBRARY: not set",
            "  2. " + Path.Combine(here, "runtimes", rid, "native", "libscatter.so") + ": no such file",
            "  3. " + Path.Combine(up, "runtimes", rid, "native", "libscatter.so") + ": no such file",
            "  4. " + Path.Combine(here, "libscatter.so") + ": no such file",
            "  5. the system's library path (LD_LIBRARY_PATH, /etc/ld.so.cache, /lib, /usr/lib) for libscatter.so: ",
            "  6. the system's library path (LD_LIBRARY_PATH, /etc/ld.so.cache, /lib, /usr/lib) for libscatter.so.0: ",
            "Set SCATTER_LIBRARY to the library's path, or put libscatter.so into one of these folders.",
            "again: True",
        };
        Check(code == 3, "not found: exit status " + code);
        int at = 0;
        foreach (string line in expected)
        {
            int found = output.IndexOf(line, at, StringComparison.Ordinal);
            Check(found >= 0, "not-found message lacks \"" + line + "\" (in order):\n" + output);
            if (found >= 0) at = found + line.Length;
        }
    }
}
