// Errors. A status says which class is thrown: the argument statuses (InvalidArgument,
// TypeMismatch, ShapeMismatch, IndexOutOfRange), whether found by the library or by the binding
// before the call, throw ScatterArgumentException, an ArgumentException; every other status
// (Unsupported, OutOfMemory, BackendUnavailable, DeviceLost, Internal) throws ScatterException.
// Both carry the status through IScatterError. After either, the output (and data, when in
// place) is unchanged.
using System;
using System.Runtime.CompilerServices;

namespace LibScatter
{
    /// <summary>What every libscatter exception carries, whichever class it is.</summary>
    public interface IScatterError
    {
        /// <summary>The status of the failure.</summary>
        Status Status { get; }

        /// <summary>The C name of the status, e.g. "SCATTER_ERROR_INDEX_OUT_OF_RANGE".</summary>
        string StatusName { get; }

        /// <summary>The one-sentence reason, e.g. "indices[1][2] = 7 is outside [-3, 3) on axis 0".</summary>
        string ErrorMessage { get; }
    }

    /// <summary>A failed libscatter call whose status is not an argument error: Unsupported,
    /// OutOfMemory, BackendUnavailable, DeviceLost or Internal. After it, the output array (and
    /// data, when in place) is unchanged.</summary>
    public class ScatterException : Exception, IScatterError
    {
        /// <summary>The status the call returned.</summary>
        public Status Status { get; private set; }

        /// <summary>The C name of the status, e.g. "SCATTER_ERROR_UNSUPPORTED".</summary>
        public string StatusName { get; private set; }

        /// <summary>The library's one-sentence reason.</summary>
        public string ErrorMessage { get; private set; }

        public ScatterException(Status status, string statusName, string errorMessage)
            : base(statusName + ": " + errorMessage)
        {
            Status = status;
            StatusName = statusName;
            ErrorMessage = errorMessage;
        }

        /// <summary>Throws for a failed status, with this thread's last-error message: a
        /// ScatterArgumentException for an argument status, a ScatterException otherwise; does
        /// nothing for Ok. Call it right after the failing call, on the same thread.</summary>
        public static void Check(Status status)
        {
            if (status == Status.Ok) return;
            throw FromLastError(status);
        }

        /// <summary>The exception for a failed status and this thread's last-error message (see
        /// <see cref="Check"/>).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static Exception FromLastError(Status status)
        {
            return Create(status, Native.Utf8(Native.scatter_status_name(status)),
                          Native.Utf8(Native.scatter_last_error_message()), null);
        }

        /// <summary>True for the statuses thrown as ScatterArgumentException.</summary>
        public static bool IsArgumentStatus(Status status)
        {
            return status == Status.InvalidArgument || status == Status.TypeMismatch ||
                   status == Status.ShapeMismatch || status == Status.IndexOutOfRange;
        }

        /// <summary>scatter_status_name without calling the library (it may not be loaded yet).</summary>
        public static string NameOf(Status status)
        {
            switch (status)
            {
                case Status.Ok: return "SCATTER_OK";
                case Status.InvalidArgument: return "SCATTER_ERROR_INVALID_ARGUMENT";
                case Status.TypeMismatch: return "SCATTER_ERROR_TYPE_MISMATCH";
                case Status.ShapeMismatch: return "SCATTER_ERROR_SHAPE_MISMATCH";
                case Status.IndexOutOfRange: return "SCATTER_ERROR_INDEX_OUT_OF_RANGE";
                case Status.Unsupported: return "SCATTER_ERROR_UNSUPPORTED";
                case Status.OutOfMemory: return "SCATTER_ERROR_OUT_OF_MEMORY";
                case Status.BackendUnavailable: return "SCATTER_ERROR_BACKEND_UNAVAILABLE";
                case Status.DeviceLost: return "SCATTER_ERROR_DEVICE_LOST";
                case Status.Internal: return "SCATTER_ERROR_INTERNAL";
                default: return "SCATTER_STATUS_UNKNOWN";
            }
        }

        /// <summary>A failure found by the binding before calling the library (an array whose
        /// length does not match its shape), reported like the library's own.</summary>
        internal static Exception Binding(Status status, string message, string paramName = null)
        {
            return Create(status, NameOf(status), message, paramName);
        }

        private static Exception Create(Status status, string statusName, string message, string paramName)
        {
            if (IsArgumentStatus(status)) return new ScatterArgumentException(status, statusName, message, paramName);
            return new ScatterException(status, statusName, message);
        }
    }

    /// <summary>An argument libscatter or the binding rejected: InvalidArgument (bad axis, option,
    /// overlapping output, integer division by zero, ...), TypeMismatch, ShapeMismatch (an array
    /// whose length is not its shape's product included) or IndexOutOfRange. An ArgumentException,
    /// so it is caught like the framework's own; <see cref="ArgumentException.ParamName"/> names the
    /// argument when the binding found the error. After it, the output is unchanged.</summary>
    public class ScatterArgumentException : ArgumentException, IScatterError
    {
        /// <summary>The status: InvalidArgument, TypeMismatch, ShapeMismatch or IndexOutOfRange.</summary>
        public Status Status { get; private set; }

        /// <summary>The C name of the status, e.g. "SCATTER_ERROR_INDEX_OUT_OF_RANGE".</summary>
        public string StatusName { get; private set; }

        /// <summary>The one-sentence reason, e.g. "indices[1][2] = 7 is outside [-3, 3) on axis 0".</summary>
        public string ErrorMessage { get; private set; }

        public ScatterArgumentException(Status status, string statusName, string errorMessage, string paramName = null)
            : base(statusName + ": " + errorMessage, paramName)
        {
            Status = status;
            StatusName = statusName;
            ErrorMessage = errorMessage;
        }
    }
}
