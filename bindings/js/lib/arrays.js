'use strict';
// TypedArrays measured with the built-in getters, and refused when their memory could change or
// vanish during a call.
//
// An array's own properties can shadow `length`, `buffer`, BYTES_PER_ELEMENT and
// Symbol.toStringTag, getters included: read through them, a Float32Array of 4 could claim 2**22
// elements, or run the caller's code between a check and the call. The built-in getters,
// captured when this module loads, read the array's internal slots and run no code of the
// caller's.

const { types } = require('node:util');

/** The built-in getter of `key`, called as getter(object); undefined where Node lacks it. */
function builtinGetter(prototype, key) {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
  return descriptor && Function.prototype.call.bind(descriptor.get);
}

const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);

/**
 * 'Float32Array', 'Uint8Array' (a Buffer too), ...: the [[TypedArrayName]], which an array of
 * another realm (node:vm) has too; undefined for anything else (a DataView, a Proxy, a look-alike).
 * @type {(value: *) => string|undefined}
 */
const kindOf = builtinGetter(TypedArrayPrototype, Symbol.toStringTag);
/** @type {(array: ArrayBufferView) => number} Elements; 0 once the buffer is detached. */
const lengthOf = builtinGetter(TypedArrayPrototype, 'length');
const bufferOf = builtinGetter(TypedArrayPrototype, 'buffer');
const byteLengthOf = builtinGetter(ArrayBuffer.prototype, 'byteLength');
// Resizable ArrayBuffers came in Node 20, ArrayBuffer.prototype.detached in Node 22.
const isResizable = builtinGetter(ArrayBuffer.prototype, 'resizable') || (() => false);
const isDetached = builtinGetter(ArrayBuffer.prototype, 'detached') || probeDetached;

/** Before Node 22: only a detached buffer (of length 0) refuses to take a view. */
function probeDetached(buffer) {
  if (byteLengthOf(buffer) !== 0) return false;
  try {
    new Uint8Array(buffer, 0, 0); // eslint-disable-line no-new
    return false;
  } catch {
    return true;
  }
}

/** This realm's class of each kind, for results; their BYTES_PER_ELEMENT cannot be redefined. */
const CLASSES = new Map([
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array, globalThis.Float16Array,
].filter(Boolean).map((Class) => [Class.name, Class]));

/**
 * Whether `value` is a TypedArray (an ArrayBufferView other than a DataView).
 * @param {*} value
 * @returns {boolean}
 */
function isTypedArray(value) {
  return kindOf(value) !== undefined;
}

/** Bytes per element of a TypedArray. */
function elementSizeOf(array) {
  return CLASSES.get(kindOf(array)).BYTES_PER_ELEMENT;
}

/**
 * Refuses a TypedArray whose memory could change or vanish while the library uses it.
 * @param {ArrayBufferView} array
 * @param {string} name How the message names the argument.
 * @throws {TypeError} Over a SharedArrayBuffer, a resizable ArrayBuffer or a detached one.
 */
function checkMemory(array, name) {
  const buffer = bufferOf(array);
  if (types.isSharedArrayBuffer(buffer)) {
    throw new TypeError(`${name} is backed by a SharedArrayBuffer, which another thread can change or grow ` +
      'while the library reads and writes it: copy it into an ArrayBuffer');
  }
  if (isResizable(buffer)) {
    throw new TypeError(`${name} is backed by a resizable ArrayBuffer, whose memory can shrink under a view ` +
      'the binding has checked: copy it into a fixed-length ArrayBuffer');
  }
  if (isDetached(buffer)) {
    throw new TypeError(`${name} is backed by a detached ArrayBuffer (transferred away), which holds no memory`);
  }
}

module.exports = { CLASSES, kindOf, lengthOf, isTypedArray, elementSizeOf, checkMemory };
