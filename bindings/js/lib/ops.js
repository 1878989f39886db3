'use strict';
// The three operations: elements, rows, nd.

const { fn, check } = require('./library');
const { InvalidArgumentError } = require('./errors');
const { callOperation } = require('./encode');
const { Context, defaultContext } = require('./context');
const { readTensor, readIndices, tensorArg, outArg, indexArg } = require('./tensor');
const { cInteger, choice, flag, checkOptionNames } = require('./validate');

/** scatter_reduction values (scatter.h). */
const REDUCTIONS = Object.freeze({ none: 1, add: 2, sub: 3, mul: 4, div: 5, max: 6, min: 7, mean: 8 });
/** The names users bring from PyTorch (scatter_reduce: sum, prod, amax, amin) and ONNX (multiply). */
const REDUCTION_ALIASES = Object.freeze({ sum: 'add', prod: 'mul', multiply: 'mul', amax: 'max', amin: 'min' });
/** scatter_out_of_range values (scatter.h). */
const OUT_OF_RANGE = Object.freeze({ error: 1, skip: 2, clamp: 3 });
const OPTION_EXCLUDE_SELF = 0x1;
const OPTION_NAMES = ['axis', 'reduction', 'excludeSelf', 'outOfRange', 'out', 'context', 'backend'];

/** The members of scatter_options, from the JS options. */
function cOptions(o) {
  return {
    axis: cInteger(o.axis === undefined ? 0 : o.axis, 'int32', 'axis'),
    reduction: choice(REDUCTIONS, o.reduction === undefined ? 'none' : o.reduction, 'reduction', REDUCTION_ALIASES),
    out_of_range: choice(OUT_OF_RANGE, o.outOfRange === undefined ? 'error' : o.outOfRange, 'outOfRange'),
    flags: flag(o.excludeSelf, false, 'excludeSelf') ? OPTION_EXCLUDE_SELF : 0,
  };
}

// Context's own getter, not `context.handle`: it reads the private handle of a real Context and
// runs no code of the caller's (a Proxy of a Context, an object that only inherits from Context or
// an own `handle` property could hand over any pointer, or close the context first).
const contextHandle = Function.prototype.call.bind(Object.getOwnPropertyDescriptor(Context.prototype, 'handle').get);

/** The handle of the context the options name. */
function handleOf(o) {
  if (o.context === undefined) return contextHandle(defaultContext(o.backend === undefined ? 'auto' : o.backend));
  let handle;
  try {
    handle = contextHandle(o.context);
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err; // a closed Context
    throw new TypeError('context must be a Context');
  }
  if (o.backend !== undefined) {
    throw new TypeError('give either context or backend: backend picks a shared context when there is no context');
  }
  return handle;
}

function run(cFunction, opName, data, indices, updates, options) {
  // First every option and every field of every argument is read, once, into plain values: a
  // getter of the caller's runs here and never again. Then the checks, then the call, with no
  // code of the caller's in between: a getter that ran after a check could shrink or detach an
  // array the check had measured, and the library would write past it.
  const o = checkOptionNames(options, OPTION_NAMES, `${opName} options`);
  const dataFields = readTensor(data, 'data');
  const indexFields = readIndices(indices);
  const updateFields = readTensor(updates, 'updates');
  // out: data (the same object) runs in place: one descriptor for both, so the library sees the
  // very same memory and strides.
  const inPlace = o.out === data;
  const outFields = o.out === undefined || inPlace ? undefined : readTensor(o.out, 'out');

  // Everything is checked before the call, so a refused call changes nothing.
  const opts = cOptions(o);
  const handle = handleOf(o);
  const d = tensorArg(dataFields, 'data');
  const i = indexArg(indexFields);
  const u = tensorArg(updateFields, 'updates');
  let out;
  let result;
  if (o.out === undefined) {
    [out, result] = d.allocateLike();
  } else {
    out = inPlace ? d : outArg(outFields, d);
    result = o.out;
  }
  check(callOperation(cFunction, handle, [d, i, u, out], opts));
  return result;
}

/**
 * Scatters element by element (ONNX ScatterElements, torch.scatter_reduce): updates[p] goes to
 * the element of data at p with p[axis] replaced by indices[p]. data, indices and updates have
 * the same rank; indices and updates the same shape.
 * @param {*} data The tensor scattered into (a TypedArray or {data, shape, strides?, offset?, dtype?}).
 * @param {*} indices Int32Array or BigInt64Array (or a tensor of one, or plain integers).
 * @param {*} updates A tensor of data's dtype.
 * @param {object} [options] axis, reduction, excludeSelf, outOfRange, out, context, backend.
 * @returns {*} out, or a new tensor of data's form, shape and dtype.
 */
function elements(data, indices, updates, options) {
  return run(fn.scatter_elements, 'elements', data, indices, updates, options);
}

/**
 * Scatters whole slices along an axis (torch.index_add_, Paddle scatter): slice p of updates goes
 * to slice indices[p] of data along `axis`. updates.shape = data.shape[:axis] + indices.shape +
 * data.shape[axis+1:].
 * @param {*} data
 * @param {*} indices Any rank, a scalar included.
 * @param {*} updates
 * @param {object} [options]
 * @returns {*}
 */
function rows(data, indices, updates, options) {
  return run(fn.scatter_rows, 'rows', data, indices, updates, options);
}

/**
 * Scatters slices addressed by index tuples (ONNX ScatterND, tf.tensor_scatter_nd_*):
 * indices.shape = batch + [k]; indices[b] addresses the first k dimensions of data and the slice
 * there receives updates[b]; updates.shape = batch + data.shape[k:]. axis must be 0.
 * @param {*} data
 * @param {*} indices
 * @param {*} updates
 * @param {object} [options]
 * @returns {*}
 */
function nd(data, indices, updates, options) {
  return run(fn.scatter_nd, 'nd', data, indices, updates, options);
}

module.exports = { elements, rows, nd, REDUCTIONS, REDUCTION_ALIASES, OUT_OF_RANGE, OPTION_EXCLUDE_SELF };
