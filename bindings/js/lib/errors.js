'use strict';
// Errors: one Error subclass per libscatter status. `status` (and `code`, Node's convention for a
// machine-readable error name) is the status enumerator's name, `message` the library's sentence.
// Status values are pinned forever by scatter.h, so the table below never changes order.

/** A libscatter call failed (or the binding refused the arguments before calling it). */
class ScatterError extends Error {
  /**
   * @param {string} message One sentence naming the offending value.
   * @param {string} [status] The status name; defaults to the subclass's.
   */
  constructor(message, status) {
    super(message);
    this.name = new.target.name;
    this.status = status !== undefined ? status : new.target.status;
    this.code = this.status;
  }
}
ScatterError.status = 'SCATTER_ERROR';

/** [status value, class name, status name] for every failure status of scatter.h. */
const STATUS_TABLE = [
  [1, 'InvalidArgumentError', 'SCATTER_ERROR_INVALID_ARGUMENT'],
  [2, 'TypeMismatchError', 'SCATTER_ERROR_TYPE_MISMATCH'],
  [3, 'ShapeMismatchError', 'SCATTER_ERROR_SHAPE_MISMATCH'],
  [4, 'IndexOutOfRangeError', 'SCATTER_ERROR_INDEX_OUT_OF_RANGE'],
  [5, 'UnsupportedError', 'SCATTER_ERROR_UNSUPPORTED'],
  [6, 'OutOfMemoryError', 'SCATTER_ERROR_OUT_OF_MEMORY'],
  [7, 'BackendUnavailableError', 'SCATTER_ERROR_BACKEND_UNAVAILABLE'],
  [8, 'DeviceLostError', 'SCATTER_ERROR_DEVICE_LOST'],
  [9, 'InternalError', 'SCATTER_ERROR_INTERNAL'],
];

/** The subclass of each status value. */
const ERROR_CLASSES = new Map();
/** The subclasses by class name, for export. */
const classes = {};
for (const [value, className, statusName] of STATUS_TABLE) {
  // A named class expression per status, so stack traces and `err.name` say which one.
  const cls = { [className]: class extends ScatterError {} }[className];
  cls.status = statusName;
  ERROR_CLASSES.set(value, cls);
  classes[className] = cls;
}

/**
 * The error for a nonzero status; an unknown value becomes a plain ScatterError whose status says
 * so (a newer library may add statuses).
 * @param {number} status
 * @param {string} message
 * @returns {ScatterError}
 */
function errorForStatus(status, message) {
  const cls = ERROR_CLASSES.get(status);
  if (cls === undefined) return new ScatterError(message, `SCATTER_STATUS_UNKNOWN(${status})`);
  return new cls(message);
}

module.exports = { ScatterError, ERROR_CLASSES, STATUS_TABLE, errorForStatus, ...classes };
