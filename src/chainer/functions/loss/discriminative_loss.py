"""Discriminative margin-based clustering loss (De Brabandere et al., 2017)."""

import chainer
from chainer import backend
from chainer.functions import _checks
from chainer.utils import type_check


class DiscriminativeMarginBasedClusteringLoss(object):
    """Discriminative loss of pixel embeddings against instance labels.

    Args:
        delta_v (float): Margin within which a pixel is close enough to its
            cluster's mean.
        delta_d (float): Half the distance beyond which two cluster means are
            far enough apart.
        max_embedding_dim (int): Number of embedding channels, and of
            instances: labels ``1 .. max_embedding_dim`` are the clusters,
            0 is the background, other labels are left out.
        norm (int): 1 (L1) or 2 (L2) distance.
        alpha (float): Weight of the variance term.
        beta (float): Weight of the distance term.
        gamma (float): Weight of the regularization term.
    """

    def __init__(self, delta_v=0.5, delta_d=1.5, max_embedding_dim=10, norm=1,
                 alpha=1.0, beta=1.0, gamma=0.001):
        if norm not in (1, 2):
            raise ValueError(f'discriminative_margin_based_clustering_loss: norm must be 1 '
                             f'or 2, got {norm!r}')
        self.delta_v = delta_v
        self.delta_d = delta_d
        self.max_embedding_dim = max_embedding_dim
        self.norm = norm
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma

    def _norm(self, v, axis):
        F = chainer.functions
        if self.norm == 1:
            return F.sum(F.absolute(v), axis=axis)
        sq = F.sum(v * v, axis=axis)
        # The gradient of sqrt at 0 is taken as 0 (where the points coincide).
        xp = backend.get_array_module(sq.array)
        pos = sq.array > 0
        return F.where(pos, F.sqrt(F.where(pos, sq, xp.ones_like(sq.array))),
                       xp.zeros_like(sq.array))

    def __call__(self, embeddings, labels):
        """Returns the variance, distance and regularization terms (scalar Variables).

        Args:
            embeddings (~chainer.Variable or N-dimensional array): Embeddings
                of shape ``(B, max_embedding_dim, H, W)`` (float).
            labels (N-dimensional array): Instance labels of shape
                ``(B, H, W)`` (int); 0 is the background, ``1 ..
                max_embedding_dim`` are the instances, other labels are left
                out.
        """
        F = chainer.functions
        labels = chainer.as_array(labels)
        func = 'discriminative_margin_based_clustering_loss'
        if len(_checks.shape_of(func, 'embeddings', embeddings)) != 4:
            # (Chainer's type: InvalidType from its inner functions)
            raise type_check.InvalidType(
                'embeddings.ndim == 4', f'{embeddings.ndim} != 4',
                f'{func}: embeddings must have shape (B, max_embedding_dim, H, W), got '
                f'{embeddings.shape}')
        _checks.shape_of(func, 'labels', labels)
        b, k = embeddings.shape[:2]
        if b == 0:
            # (the loss averages over the images; Chainer 7.8.1 fails to broadcast then)
            raise type_check.InvalidType('embeddings.shape[0] > 0', '0 == 0',
                                         f'{func}: the batch is empty')
        expected = (f'discriminative_margin_based_clustering_loss: expected embeddings of shape '
                    f'(B, {self.max_embedding_dim}, H, W) and labels of shape (B, H, W), got '
                    f'{embeddings.shape} and {labels.shape}')
        # The exception types are Chainer 7.8.1's: its assert on the embedding size, and the
        # InvalidType its inner functions raise for labels of another shape.
        if k != self.max_embedding_dim:
            raise _checks.AssertionValueError(expected)
        if labels.shape != (b,) + embeddings.shape[2:]:
            raise type_check.InvalidType(
                'embeddings.shape == (B, max_embedding_dim, H, W), labels.shape == (B, H, W)',
                f'{embeddings.shape}, {labels.shape}', expected)
        xp = backend.get_array_module(labels)
        dtype = embeddings.dtype
        emb = F.reshape(embeddings, (b, k, -1))                         # (B, E, P)
        p = emb.shape[2]
        lab = labels.reshape(b, 1, p)
        masks = (lab == xp.arange(1, k + 1)[None, :, None]).astype(dtype)  # (B, C, P)
        counts = masks.sum(axis=2)                                      # (B, C)
        # A cluster absent from a sample has the mean 0 there.
        means = F.matmul(masks, emb, transb=True) / xp.maximum(counts, 1)[:, :, None]

        # Variance: pixels farther than delta_v from their cluster's mean, each
        # cluster's sum divided by its pixel count over the whole batch.
        diff = (F.broadcast_to(F.expand_dims(emb, 1), (b, k, k, p))
                - F.broadcast_to(F.expand_dims(means, 3), (b, k, k, p)))
        pull = F.relu(self._norm(diff, 2) - self.delta_v) ** 2 * masks  # (B, C, P)
        total = xp.maximum(counts.sum(axis=0), 1)                       # (C,)
        l_var = F.sum(F.sum(pull, axis=(0, 2)) / total) / k

        # Distance: every ordered pair of cluster means closer than 2 delta_d.
        md = (F.broadcast_to(F.expand_dims(means, 2), (b, k, k, k))
              - F.broadcast_to(F.expand_dims(means, 1), (b, k, k, k)))
        off = (1 - xp.eye(k, dtype=dtype))[None]
        push = F.relu(2 * self.delta_d - self._norm(md, 3)) ** 2 * off
        l_dist = F.sum(push) / max(b * k * (k - 1), 1)

        # Regularization: each cluster's means of all samples, as one vector.
        per_cluster = F.reshape(F.transpose(means, (1, 0, 2)), (k, -1))
        l_reg = F.sum(self._norm(per_cluster, 1)) / (b * k)
        return self.alpha * l_var, self.beta * l_dist, self.gamma * l_reg


def discriminative_margin_based_clustering_loss(
        embeddings, labels, delta_v, delta_d, max_embedding_dim, norm=1,
        alpha=1.0, beta=1.0, gamma=0.001):
    """Discriminative margin-based clustering loss for instance segmentation.

    With :math:`C` clusters (labels ``1 .. C``), :math:`\\mu_{bc}` the mean
    embedding of cluster ``c`` in sample ``b`` (0 where it is absent) and
    :math:`N_c` its pixel count over the batch,

    .. math::
        L_{var} = \\frac{1}{C} \\sum_c \\frac{1}{N_c} \\sum_{b, i \\in c}
            [\\|\\mu_{bc} - x_{bi}\\| - \\delta_v]_+^2, \\quad
        L_{dist} = \\frac{1}{BC(C-1)} \\sum_b \\sum_{c \\ne c'}
            [2\\delta_d - \\|\\mu_{bc} - \\mu_{bc'}\\|]_+^2, \\quad
        L_{reg} = \\frac{1}{BC} \\sum_c \\|(\\mu_{1c}, \\dots, \\mu_{Bc})\\|

    weighted by ``alpha``, ``beta`` and ``gamma``.

    Args:
        embeddings (~chainer.Variable or N-dimensional array): Embeddings of
            shape ``(B, max_embedding_dim, H, W)`` (float).
        labels (N-dimensional array): Instance labels of shape ``(B, H, W)``
            (int); 0 is the background.
        delta_v (float): Variance margin.
        delta_d (float): Distance margin.
        max_embedding_dim (int): Number of embedding channels (and clusters).
        norm (int): 1 or 2.
        alpha (float): Weight of the variance term.
        beta (float): Weight of the distance term.
        gamma (float): Weight of the regularization term.

    Returns:
        tuple of ~chainer.Variable: The variance, distance and regularization
        terms, weighted.
    """
    loss = DiscriminativeMarginBasedClusteringLoss(
        delta_v, delta_d, max_embedding_dim, norm, alpha, beta, gamma)
    return loss(embeddings, labels)
