"""Trainer extensions for multi-process training."""
from chainermn.extensions.multi_node_evaluator import create_multi_node_evaluator  # NOQA
