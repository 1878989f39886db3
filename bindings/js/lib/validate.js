'use strict';
// Checks of the scalar arguments that the binding converts to C integers or enum values. koffi
// would silently keep only the low bits of an out-of-range number (axis 2**32 + 1 would run as
// axis 1) and truncate a fraction, so every value is checked here first.

const { InvalidArgumentError } = require('./errors');

const C_RANGES = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/**
 * `value` as a BigInt that fits the C type `cType`.
 * @param {number|bigint} value A safe integer Number or a BigInt.
 * @param {'int32'|'uint32'|'int64'|'uint64'} cType
 * @param {string} what How the message names the value.
 * @returns {bigint}
 * @throws {TypeError} Not an integer (or a Number beyond 2**53, which may already be rounded).
 * @throws {InvalidArgumentError} Outside the C type's range.
 */
function cIntegerBig(value, cType, what) {
  let big;
  if (typeof value === 'bigint') {
    big = value;
  } else if (typeof value === 'number' && Number.isSafeInteger(value)) {
    big = BigInt(value);
  } else {
    const shown = typeof value === 'number' ? String(value) : typeof value;
    throw new TypeError(`${what} must be an integer (a safe integer Number or a BigInt), not ${shown}`);
  }
  const [low, high] = C_RANGES[cType];
  if (big < low || big > high) {
    throw new InvalidArgumentError(
      `${what} = ${big} is outside the range [${low}, ${high}] of its C type ${cType}_t`);
  }
  return big;
}

/**
 * As cIntegerBig, for 32-bit C types, returned as a Number.
 * @param {number|bigint} value
 * @param {'int32'|'uint32'} cType
 * @param {string} what
 * @returns {number}
 */
function cInteger(value, cType, what) {
  return Number(cIntegerBig(value, cType, what));
}

/**
 * The value of a named choice.
 * @param {Object<string, number>} table Name -> C value.
 * @param {*} value The name given.
 * @param {string} what How the message names the parameter.
 * @param {Object<string, string>} [aliases] Other names -> a name of `table`.
 * @returns {number}
 * @throws {InvalidArgumentError} Not one of the names.
 */
function choice(table, value, what, aliases = {}) {
  const name = typeof value === 'string' && Object.hasOwn(aliases, value) ? aliases[value] : value;
  if (typeof name === 'string' && Object.hasOwn(table, name)) return table[name];
  const also = Object.keys(aliases).length ? ` (or ${Object.keys(aliases).join(', ')})` : '';
  const shown = typeof value === 'string' ? `'${value}'` : String(value);
  throw new InvalidArgumentError(`${what} ${shown} is not one of ${Object.keys(table).join(', ')}${also}`);
}

/**
 * A boolean option (undefined gives `fallback`).
 * @param {*} value
 * @param {boolean} fallback
 * @param {string} what
 * @returns {boolean}
 */
function flag(value, fallback, what) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`${what} must be true or false, not ${typeof value}`);
  return value;
}

/**
 * Refuses option names that are not known (a misspelt one, exclude_self for excludeSelf, would
 * otherwise be ignored without a word), then reads each known option once into a plain object:
 * the checks and the call then work from that copy, so that no getter of the caller's runs
 * between a check and the call.
 * @param {object|undefined} options
 * @param {string[]} known
 * @param {string} what
 * @returns {object} The known options' values (undefined where not given).
 */
function checkOptionNames(options, known, what) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw new TypeError(`${what} must be an object, not ${typeof options}`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`${what} has no option '${key}'; the options are ${known.join(', ')}`);
    }
  }
  const values = {};
  for (const key of known) values[key] = options[key];
  return values;
}

module.exports = { cInteger, cIntegerBig, choice, flag, checkOptionNames };
