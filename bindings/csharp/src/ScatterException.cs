using System;

namespace LibScatter
{
    /// <summary>A failed libscatter call. After it, the output array (and data, when in place) is
    /// unchanged.</summary>
    public class ScatterException : Exception
    {
        /// <summary>The status the call returned.</summary>
        public Status Status { get; private set; }

        /// <summary>The C name of the status, e.g. "SCATTER_ERROR_INDEX_OUT_OF_RANGE".</summary>
        public string StatusName { get; private set; }

        /// <summary>The library's one-sentence reason, e.g.
        /// "indices[1][2] = 7 is outside [-3, 3) on axis 0".</summary>
        public string ErrorMessage { get; private set; }

        public ScatterException(Status status, string statusName, string errorMessage)
            : base(statusName + ": " + errorMessage)
        {
            Status = status;
            StatusName = statusName;
            ErrorMessage = errorMessage;
        }

        /// <summary>Throws for a failed status, with this thread's last-error message; does
        /// nothing for Ok. Call it right after the failing call, on the same thread.</summary>
        public static void Check(Status status)
        {
            if (status == Status.Ok) return;
            throw new ScatterException(status, Native.Utf8(Native.scatter_status_name(status)),
                                       Native.Utf8(Native.scatter_last_error_message()));
        }

        /// <summary>A failure found by the binding before calling the library (an array whose
        /// length does not match its shape), reported like the library's own.</summary>
        internal static ScatterException Binding(Status status, string message)
        {
            return new ScatterException(status, Native.Utf8(Native.scatter_status_name(status)), message);
        }
    }
}
