"""What a function does to take part in a static schedule: ``static_code`` and the generic wrap.

While a static chain (:func:`chainer.static_graph`) runs its define-by-run code for the first
time, ``chainer.config.schedule_func`` is the schedule being recorded. Every
:meth:`FunctionNode.apply <chainer.FunctionNode.apply>` then calls
:func:`static_forward_optimizations` instead of the node's ``forward``, and every call of a
function decorated with :func:`static_code` is kept as a step of the schedule, to be called
again at each replay.
"""
import functools
import inspect  # NOQA: part of this module's namespace in Chainer

import numpy

import chainer
from chainer import configuration


def static_code(*dec_args, **dec_kwargs):
    """Decorator marking a function whose calls a static schedule repeats.

    Inside the define-by-run code of a static chain, a call of the decorated function is
    run once and recorded; each replay of the chain's schedule calls it again, in the same
    place of the sequence. Outside of such a recording the function is simply called. Use
    it for code that must run at every call of a static chain but is not a Chainer
    function (a counter, a check, a print), and, in a
    :class:`~chainer.FunctionNode` that sets ``_supports_static_optimizations = True``,
    for the array computations of its ``forward``.

    The decorator is used bare (``@static_code``) or with ``func_name=``, a name shown in
    the schedule's description.

    Arrays passed between recorded functions must go through two keyword arguments of the
    decorated function, so that each replay hands it the current ones:

    - ``inputs``: a list of the arrays it reads;
    - ``outputs``: a list of preallocated arrays it writes in place (they are reused at
      every replay).

    The function may also return a tuple of newly allocated arrays (or ``None``); later
    steps that use them receive the arrays of the current replay. Any other argument is
    passed again as it was recorded.

    Args:
        func_name (str): A descriptive name for the schedule (optional).

    Returns:
        The decorated function (or, with ``func_name``, a decorator).
    """
    func_name = dec_kwargs.pop('func_name', None)
    if dec_kwargs:
        raise TypeError('static_code: unexpected keyword argument(s) '
                        + ', '.join(repr(k) for k in dec_kwargs) + ' (only func_name)')
    if len(dec_args) == 1 and callable(dec_args[0]) and func_name is None:
        return _wrap_static_code(dec_args[0], None)
    if dec_args:
        raise TypeError('static_code takes the function to decorate, or func_name=... only')

    def decorator(func):
        return _wrap_static_code(func, func_name)
    return decorator


def _wrap_static_code(func, func_name):
    if not callable(func):
        raise TypeError(f'static_code decorates a function, not {type(func).__name__}')

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        schedule = configuration.config.schedule_func
        if schedule is None:
            return func(*args, **kwargs)
        return schedule.append_function(func, args, kwargs, func_name=func_name)
    wrapped._static_code_function = func
    return wrapped


def static_forward_optimizations(func, inputs):
    """Runs ``func``'s forward while a static schedule is recorded, and records it.

    :meth:`FunctionNode.apply <chainer.FunctionNode.apply>` calls this in place of
    ``func.forward(inputs)`` when ``chainer.config.schedule_func`` is set. A node with
    ``_supports_static_optimizations = True`` runs its forward as it is: the
    :func:`static_code` calls it makes are the steps of the schedule. Any other node is
    wrapped as a whole: its ``forward`` becomes one step, called at each replay on the
    arrays of that replay.

    Args:
        func (~chainer.FunctionNode): The node being applied.
        inputs (tuple of N-dimensional array): Its input arrays.

    Returns:
        tuple of N-dimensional array: The outputs of the forward.
    """
    schedule = configuration.config.schedule_func
    if schedule is None:
        return _run_forward(func, inputs)[0]
    if func._supports_static_optimizations:
        return schedule._head._program.record_static_node(func, inputs)
    return schedule._head._program.record_node(func, inputs)


def _run_forward(func, inputs):
    """``func.forward(inputs)`` as apply runs it: under the device of CuPy inputs, with
    NumPy scalars in the result turned into arrays.

    Returns:
        (outputs, on_device, fixed): the outputs (a tuple), whether a device context was
        needed, whether the outputs needed fixing.
    """
    on_device = False
    for x in inputs:
        if x is not None and x.__class__ is not numpy.ndarray:
            on_device = True
            break
    if on_device:
        outputs = _forward_on_device(func, inputs)
    else:
        outputs = func.forward(inputs)
    if outputs.__class__ is not tuple:
        raise TypeError(f'{func.label}: forward must return a tuple of arrays, '
                        f'got {type(outputs).__name__}')
    fixed = False
    for y in outputs:
        if y.__class__ is not numpy.ndarray:
            outputs = func._output_arrays(outputs, inputs)
            fixed = True
            break
    return outputs, on_device, fixed


def _forward_on_device(func, inputs):
    arrays = [x for x in inputs if x is not None]
    if arrays and arrays[0].__class__ is not numpy.ndarray:
        with chainer.backend.get_device_from_array(arrays[0]).create_context():
            return func.forward(inputs)
    return func.forward(inputs)
