"""Nodes that Chainer 7.8.1 implements as old-style ``chainer.Function`` classes.

Code written for Chainer calls such a class's instance directly (``Hinge('L1')(x, t)``).
rechainer implements these functions as FunctionNodes (so they are differentiable twice, and one
code path serves everything); :class:`FunctionCall` keeps that direct call working.
"""


class FunctionCall:
    """Mixin of a FunctionNode: ``node(*inputs)`` works as an old-style Function's call, and
    returns the output Variable (a tuple of them when there are several)."""

    def __call__(self, *inputs):
        outputs = self.apply(inputs)
        return outputs[0] if len(outputs) == 1 else outputs
