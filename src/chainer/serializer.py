"""The serializer protocol: objects save and load their state through it.

An object takes part by defining ``serialize(serializer)``, which calls
``serializer(key, value)`` for each value it owns and ``serializer[name]`` for
each child object. The same method serves both directions: a
:class:`Serializer` records the value and returns it; a :class:`Deserializer`
returns the loaded value (arrays are filled in place).
"""


class AbstractSerializer:
    """Base of serializers and deserializers."""

    def __getitem__(self, key):
        """Returns a child serializer that prefixes keys with ``key``.

        Args:
            key (str): Name of the child scope.

        Returns:
            AbstractSerializer: The serializer of that scope.
        """
        raise NotImplementedError

    def __call__(self, key, value):
        """Saves or loads one value.

        A serializer stores ``value`` under ``key`` and returns it. A
        deserializer reads ``key``: an array ``value`` is overwritten in place
        (and returned), a scalar ``value`` only tells the type to convert the
        loaded value to, and ``None`` returns the loaded value as it is.

        Args:
            key (str): Name of the value.
            value: The value to save, or the destination or type of the value
                to load.

        Returns:
            The saved value, or the loaded one.
        """
        raise NotImplementedError


class Serializer(AbstractSerializer):
    """Base of the classes that save objects."""

    def save(self, obj):
        """Saves ``obj`` by calling its ``serialize`` with this serializer.

        A ``dict`` (which has no ``serialize``) is saved as its items, each value
        under its key, as Chainer does.
        """
        if isinstance(obj, dict):
            for key, value in obj.items():
                self(key, value)
        else:
            obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base of the classes that load objects."""

    def load(self, obj):
        """Loads ``obj`` by calling its ``serialize`` with this deserializer."""
        obj.serialize(self)
