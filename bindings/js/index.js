'use strict';
/**
 * libscatter for Node.js: scatter TypedArrays on the CPU or a Vulkan GPU, zero-copy.
 *
 *   const scatter = require('libscatter');
 *   scatter.elements(new Float32Array(4), [1, 1, 3], new Float32Array([1, 1, 1]), { reduction: 'add' });
 *   // Float32Array [0, 2, 0, 1]
 *
 * Functions: elements, rows, nd (the three operations), devices. Class: Context. Every failure
 * throws a subclass of ScatterError with `status` (the C status name) and the library's message.
 * See README.md and index.d.ts.
 * @module libscatter
 */

const library = require('./lib/library');
const errors = require('./lib/errors');
const { Context, BACKENDS } = require('./lib/context');
const { elements, rows, nd, REDUCTIONS, REDUCTION_ALIASES, OUT_OF_RANGE } = require('./lib/ops');
const { devices } = require('./lib/devices');
const { DTYPES } = require('./lib/tensor');

module.exports = {
  elements,
  rows,
  nd,
  devices,
  Context,
  /** The loaded library's version, e.g. "0.1.0". */
  version: library.fn.scatter_version_string(),
  /** The library that was loaded: a path, or the bare system name the loader searched for. */
  libraryPath: library.libraryPath,
  /** SCATTER_MAX_RANK: the largest rank of any tensor. */
  MAX_RANK: library.MAX_RANK,
  DTYPES,
  REDUCTIONS,
  REDUCTION_ALIASES,
  OUT_OF_RANGE,
  BACKENDS,
  ScatterError: errors.ScatterError,
  InvalidArgumentError: errors.InvalidArgumentError,
  TypeMismatchError: errors.TypeMismatchError,
  ShapeMismatchError: errors.ShapeMismatchError,
  IndexOutOfRangeError: errors.IndexOutOfRangeError,
  UnsupportedError: errors.UnsupportedError,
  OutOfMemoryError: errors.OutOfMemoryError,
  BackendUnavailableError: errors.BackendUnavailableError,
  DeviceLostError: errors.DeviceLostError,
  InternalError: errors.InternalError,
};
