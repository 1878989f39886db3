"""Lifetimes: a context's C handle is destroyed only after every buffer created on it, whether
the context is closed, goes out of scope, or is collected in one reference cycle with its
buffers (the collector runs their finalizers in any order)."""
import gc

import numpy as np
import pytest

import scatter
from scatter._library import lib


def handle_value(handle):
    return handle if isinstance(handle, int) else handle.value


class Destroys:
    """The C destroy calls in order, as ("context" | "buffer", handle value). A buffer destroyed
    after its context would be a read of freed memory in the library: it is recorded and not
    passed on, so the test fails instead of corrupting the process."""

    def __init__(self):
        self.events = []
        self.owner = {}  # buffer handle value -> its context's, for the buffers under test
        self.gone = set()

    def watch(self, context, buffers):
        """(context value, buffer values) of a context and buffers created on it."""
        context_value = context.handle.value
        buffer_values = {b._handle.value for b in buffers}
        self.owner.update((b, context_value) for b in buffer_values)
        return context_value, buffer_values

    def check_order(self, context_value, buffer_values):
        events = self.events
        contexts = [i for i, e in enumerate(events) if e == ("context", context_value)]
        buffers = [i for i, (kind, value) in enumerate(events) if kind == "buffer" and value in buffer_values]
        assert len(contexts) == 1, f"context destroyed {len(contexts)} times: {events}"
        assert len(buffers) == len(buffer_values), f"buffers destroyed {len(buffers)} times: {events}"
        assert max(buffers) < contexts[0], f"a buffer was destroyed after its context: {events}"


@pytest.fixture
def destroys(monkeypatch):
    recorder = Destroys()
    real_context_destroy, real_buffer_destroy = lib.scatter_context_destroy, lib.scatter_buffer_destroy

    def context_destroy(handle):
        recorder.events.append(("context", handle_value(handle)))
        recorder.gone.add(handle_value(handle))
        real_context_destroy(handle)

    def buffer_destroy(handle):
        recorder.events.append(("buffer", handle_value(handle)))
        if recorder.owner.get(handle_value(handle)) not in recorder.gone:
            real_buffer_destroy(handle)

    monkeypatch.setattr(lib, "scatter_context_destroy", context_destroy)
    monkeypatch.setattr(lib, "scatter_buffer_destroy", buffer_destroy)
    return recorder


def make_cycle(destroys):
    """A context and three buffers in one reference cycle, unreachable once returned from."""
    context = scatter.Context(backend="cpu")
    buffers = [context.buffer(64) for _ in range(2)] + [context.to_device(np.arange(4.0)).buffer]
    watched = destroys.watch(context, buffers)
    cycle = [context, buffers]
    buffers.append(cycle)
    context.cycle = cycle
    return watched


@pytest.fixture
def gc_quiet():
    """The collector off during setup, so that it first sees the cycles whole in gc.collect()."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_context_collected_in_a_cycle_with_its_buffers_outlives_them(destroys, gc_quiet):
    cycles = [make_cycle(destroys) for _ in range(3)]
    for _ in range(3):
        gc.collect()
    for context_value, buffer_values in cycles:
        destroys.check_order(context_value, buffer_values)


def test_closing_a_context_destroys_its_buffers_first_and_they_then_refuse_use(destroys):
    context = scatter.Context(backend="cpu")
    buffer = context.buffer(16)
    array = context.to_device(np.arange(4, dtype=np.float32))
    context_value, values = destroys.watch(context, [buffer, array.buffer])
    context.close()
    destroys.check_order(context_value, values)
    with pytest.raises(scatter.InvalidArgumentError, match="closed"):
        buffer.write(np.zeros(4, np.float32))
    with pytest.raises(scatter.InvalidArgumentError, match="closed"):
        array.numpy()
    with pytest.raises(scatter.InvalidArgumentError, match="closed"):
        scatter.elements(array, [0], np.ones(1, np.float32))
    buffer.close()  # already destroyed with the context: nothing more happens
    del buffer, array
    gc.collect()
    destroys.check_order(context_value, values)


def test_a_buffer_keeps_its_context_alive():
    buffer = scatter.Context(backend="cpu").to_device(np.arange(3, dtype=np.int32)).buffer
    gc.collect()
    back = np.zeros(3, np.int32)
    buffer.read(back)
    np.testing.assert_array_equal(back, [0, 1, 2])
    assert buffer.context.backend == "cpu"


def test_a_buffer_closed_first_is_destroyed_once(destroys):
    with scatter.Context(backend="cpu") as context:
        buffer = context.buffer(8)
        context_value, values = destroys.watch(context, [buffer])
        buffer.close()
        buffer.close()
    destroys.check_order(context_value, values)
    with pytest.raises(scatter.InvalidArgumentError, match="closed"):
        buffer.read(np.zeros(1, np.float64))
