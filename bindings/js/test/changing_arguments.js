'use strict';
// Calls whose arguments change or lie while the binding looks at them: getters that shrink or
// detach an array's memory after the binding checked it, TypedArrays whose own properties lie,
// a Context whose own `handle` property closes it. Before the binding read every argument once,
// up front, and measured arrays with the built-in getters, several of these made the library
// write past an array, which kills the process; so changing_arguments.test.js runs each case in
// a child process:
//   node changing_arguments.js <case>
// prints one JSON line: {error, message, facts}: the class and message of what the call threw
// (error null when it returned) and what the case recorded (getter calls, values written).

const { scatter } = require('./package');

// Big enough that a write past a shrunk or freed array lands on unmapped pages (a crash), not on
// some other live object.
const N = 1 << 22;

// How many times the binding read options.out before it checked out; its next read came after.
const READS_BEFORE_CHECKS = 3;

/** A length-tracking Float32Array over a resizable ArrayBuffer. */
function resizableArray(n) {
  return new Float32Array(new ArrayBuffer(n * 4, { maxByteLength: n * 4 }));
}

/** Detaches `buffer` as posting it to a worker would (ArrayBuffer.prototype.transfer is Node 22+). */
function detach(buffer) {
  structuredClone(buffer, { transfer: [buffer] });
}

const CASES = {
  // options.out answers honestly until the binding has checked out, then shrinks out's buffer.
  'out getter shrinks out'(facts) {
    const out = resizableArray(N);
    facts.calls = 0;
    const options = {
      get out() {
        facts.calls += 1;
        if (facts.calls > READS_BEFORE_CHECKS) out.buffer.resize(0);
        return out;
      },
    };
    scatter.elements(new Float32Array(N), Int32Array.of(0), Float32Array.of(1), options);
  },

  // The same with a plain ArrayBuffer, detached: a binding that reads out once never sees it go.
  'out getter detaches out'(facts) {
    const out = new Float32Array(N);
    facts.calls = 0;
    const options = {
      get out() {
        facts.calls += 1;
        if (facts.calls > READS_BEFORE_CHECKS) detach(out.buffer);
        return out;
      },
    };
    scatter.elements(new Float32Array(N), Int32Array.of(0), Float32Array.of(1), options);
    facts.first = out[0];
  },

  // A field of updates, read after data was checked, shrinks data's buffer; data is also out.
  'updates getter shrinks data'(facts) {
    const data = resizableArray(N);
    facts.calls = 0;
    const updates = {
      data: Float32Array.of(1),
      get dtype() {
        facts.calls += 1;
        data.buffer.resize(0);
        return undefined;
      },
    };
    scatter.elements(data, Int32Array.of(N - 1), updates, { out: data });
  },

  'updates getter detaches data'(facts) {
    const data = new Float32Array(N);
    facts.calls = 0;
    const updates = {
      get data() {
        facts.calls += 1;
        if (data.length > 0) detach(data.buffer);
        return Float32Array.of(1);
      },
    };
    scatter.elements(data, Int32Array.of(N - 1), updates, { out: data });
  },

  // An own `length` that claims 2**22 elements in an array of 4.
  'out with a lying length'() {
    const out = new Float32Array(4);
    Object.defineProperty(out, 'length', { value: N });
    scatter.elements(new Float32Array(N), Int32Array.of(0), Float32Array.of(1), { out });
  },

  // An own Symbol.toStringTag that makes bytes look like f64: eight times the memory there is.
  'data with a lying kind'() {
    const data = new Uint8Array(N);
    Object.defineProperty(data, Symbol.toStringTag, { value: 'Float64Array' });
    scatter.elements(data, Int32Array.of(0), Float64Array.of(1));
  },

  // An own BYTES_PER_ELEMENT that moves element [0] of a view with an offset a GiB away.
  'data with a lying element size'(facts) {
    const array = new Float32Array(N);
    Object.defineProperty(array, 'BYTES_PER_ELEMENT', { value: 2 ** 30 });
    const data = { data: array, shape: [N - 1], strides: [1], offset: 1 };
    scatter.elements(data, Int32Array.of(0), Float32Array.of(1), { out: data });
    facts.first = array[1];
  },

  // An own `handle` getter on a real Context that closes it and hands back the freed handle.
  'context whose own handle closes it'(facts) {
    const context = new scatter.Context({ backend: 'cpu' });
    const handle = context.handle;
    facts.calls = 0;
    Object.defineProperty(context, 'handle', {
      get() {
        facts.calls += 1;
        context.close();
        return handle;
      },
    });
    const out = scatter.elements(new Float32Array(N), Int32Array.of(0), Float32Array.of(1), { context });
    facts.first = out[0];
    facts.closed = context.closed;
    context.close();
  },
};

if (require.main === module) {
  const name = process.argv[2];
  if (!Object.hasOwn(CASES, name)) {
    console.error(`changing_arguments.js: no case '${name}'; the cases are: ${Object.keys(CASES).join(', ')}`);
    process.exit(2);
  }
  const facts = {};
  let error = null;
  let message = null;
  try {
    CASES[name](facts);
  } catch (err) {
    error = err.constructor.name;
    message = err.message;
  }
  process.stdout.write(`${JSON.stringify({ error, message, facts })}\n`);
}

module.exports = { CASES };
