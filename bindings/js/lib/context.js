'use strict';
// Context: which backend, device and thread count the operations run on.

const { fn, check, CONTEXT_DESC_SIZE } = require('./library');
const { InvalidArgumentError } = require('./errors');
const { cInteger, choice, flag, checkOptionNames } = require('./validate');

/** scatter_backend values (scatter.h). */
const BACKENDS = Object.freeze({ auto: 0, cpu: 1, vulkan: 2 });
const CONTEXT_FLAG_ALLOW_NONDETERMINISM = 0x1;
const CONTEXT_OPTIONS = ['backend', 'threads', 'device', 'deterministic'];

// A context that is garbage-collected without close() still releases its threads and device
// memory. The held value is the handle alone: the registry must not keep the Context alive.
const finalizer = new FinalizationRegistry((handle) => fn.scatter_context_destroy(handle));

/** A libscatter context: a backend with its device, threads and caches. */
class Context {
  #handle = null;

  /**
   * @param {object} [options]
   * @param {'auto'|'cpu'|'vulkan'} [options.backend='auto'] Where operations run. 'auto' takes a
   *   usable GPU when there is one and routes each call to the CPU or the GPU by a cost model.
   * @param {number} [options.threads=0] CPU threads in all (0: one per hardware thread).
   * @param {number} [options.device=-1] Vulkan device index from devices() (-1: chosen
   *   automatically).
   * @param {boolean} [options.deterministic=true] false allows faster paths whose float results
   *   may depend on the order in which duplicate indices are applied.
   * @throws {BackendUnavailableError} The backend or device asked for is not there.
   * @throws {InvalidArgumentError} A value out of range or an unknown backend.
   */
  constructor(options) {
    const o = checkOptionNames(options, CONTEXT_OPTIONS, 'Context');
    const desc = {
      struct_size: CONTEXT_DESC_SIZE,
      backend: choice(BACKENDS, o.backend === undefined ? 'auto' : o.backend, 'backend'),
      device_index: cInteger(o.device === undefined ? -1 : o.device, 'int32', 'device'),
      thread_count: cInteger(o.threads === undefined ? 0 : o.threads, 'uint32', 'threads'),
      flags: flag(o.deterministic, true, 'deterministic') ? 0 : CONTEXT_FLAG_ALLOW_NONDETERMINISM,
      parallel_for: null,
      parallel_for_user: null,
      allocator: null,
      log: null,
      log_user: null,
    };
    const out = [null];
    check(fn.scatter_context_create(desc, out));
    this.#handle = out[0];
    finalizer.register(this, this.#handle, this);
  }

  /**
   * The C handle (scatter_context) as koffi passes it.
   * @throws {InvalidArgumentError} The context was closed.
   */
  get handle() {
    if (this.#handle === null) throw new InvalidArgumentError('the context was closed');
    return this.#handle;
  }

  /** Whether close() was called. */
  get closed() {
    return this.#handle === null;
  }

  /** The backend the context runs on: 'cpu' or 'vulkan' (never 'auto'). */
  get backend() {
    const out = [0];
    check(fn.scatter_context_backend(this.handle, out));
    return fn.scatter_backend_name(out[0]);
  }

  /** Destroys the context; later calls on it throw InvalidArgumentError. Closing twice is fine. */
  close() {
    if (this.#handle !== null) {
      finalizer.unregister(this);
      const handle = this.#handle;
      this.#handle = null;
      fn.scatter_context_destroy(handle);
    }
  }
}

// `using context = new Context()` where the runtime has explicit resource management.
if (typeof Symbol.dispose === 'symbol') {
  Context.prototype[Symbol.dispose] = function dispose() {
    this.close();
  };
}

const defaultContexts = new Map();

/**
 * The shared context of a backend name, created on first use, used by the operations when no
 * `context` is given. Never closed: it lives as long as the process.
 * @param {string} backend
 * @returns {Context}
 */
function defaultContext(backend) {
  choice(BACKENDS, backend, 'backend');
  let context = defaultContexts.get(backend);
  if (context === undefined) {
    context = new Context({ backend });
    defaultContexts.set(backend, context);
  }
  return context;
}

module.exports = { Context, BACKENDS, CONTEXT_FLAG_ALLOW_NONDETERMINISM, defaultContext };
