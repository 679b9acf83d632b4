"""Array records: a game's state or component data as one object holding numpy arrays.

Kernels read ``state.markers[courtier, player]`` whatever the record is. Compiled, a record is
a numba StructRef, passed to every kernel function as one pointer: a namedtuple of ~25 arrays
is passed field by field (every array's shape, strides and pointers), which measured ~250 ns per
call and made a game ~20x slower. Under ``NUMBA_DISABLE_JIT=1`` a record is a plain namedtuple.

On the Python side a record built from arrays keeps them, so attribute access, pickling (joblib
workers) and equality need no compiled getters.

Field reads do not need numba's reference counting (the record keeps its arrays alive), so
kernels compiled with ``_nrt=False`` can read them (``game_kernel``, sim/core/kernels.py).

Define a record with ``define_array_record(name, fields, module_globals)``; it creates the
StructRef type class ``<name>Type`` and the proxy class ``<name>`` in the calling module, so
numba's cache can find both by name. Then give it a cached constructor (``construct_with``).
"""
from collections import namedtuple

from numba import config, njit
from numba.core import cgutils, imputils, types
from numba.core.datamodel import default_manager, models
from numba.core.extending import infer_getattr, lower_getattr_generic, lower_setattr_generic
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.core.typing.templates import AttributeTemplate
from numba.experimental import structref


class ArrayRecordProxy(structref.StructRefProxy):
    """Python face of an array record: keeps the namedtuple of arrays it was made from."""

    def __getattr__(self, name):
        arrays = self.__dict__.get("_arrays")
        if arrays is not None and name in arrays._fields:
            return getattr(arrays, name)
        return _compiled_getter(name)(self)

    def __reduce__(self):
        return (_rebuild, (type(self), self._as_arrays()))

    def _as_arrays(self):
        arrays = self.__dict__.get("_arrays")
        if arrays is None:
            arrays = self._arrays_type(*(_compiled_getter(name)(self) for name in self._arrays_type._fields))
            self.__dict__["_arrays"] = arrays
        return arrays


def _rebuild(proxy_class, arrays):
    return proxy_class.from_arrays(arrays)


_GETTERS = {}


def _compiled_getter(name):
    """A compiled ``lambda record: record.<name>`` (used only for records built in a kernel)."""
    if name.startswith("__") or not name.isidentifier():
        raise AttributeError(name)
    if name not in _GETTERS:
        namespace = {}
        exec(f"def get(record):\n    return record.{name}\n", namespace)  # noqa: S102 - field name is an identifier
        _GETTERS[name] = njit(namespace["get"])
    return _GETTERS[name]


def _preprocess_fields(self, fields):
    return tuple((name, types.unliteral(typ)) for name, typ in fields)


def define_array_record(name, fields, module_globals):
    """Create the record class ``name`` with ``fields`` in the calling module; returns
    (record class, namedtuple class of its arrays). ``Record(*arrays)`` works in Python and in
    kernels; ``Record.from_arrays(arrays)`` builds one from the namedtuple."""
    arrays_type = namedtuple(name + "Arrays", fields)
    module = module_globals["__name__"]
    arrays_type.__module__ = module
    module_globals[name + "Arrays"] = arrays_type
    if config.DISABLE_JIT:
        record = namedtuple(name, fields)
        record.__module__ = module
        record.from_arrays = classmethod(lambda cls, arrays: cls(*arrays))
        module_globals[name] = record
        return record, arrays_type
    type_class = type(name + "Type", (types.StructRef,), {"preprocess_fields": _preprocess_fields,
                                                         "__module__": module})
    _register(type_class)
    module_globals[name + "Type"] = type_class

    def from_arrays(cls, arrays):
        record = cls(*arrays)
        record.__dict__["_arrays"] = arrays_type(*arrays)
        return record

    proxy = type(name, (ArrayRecordProxy,), {"__module__": module, "from_arrays": classmethod(from_arrays),
                                             "_arrays_type": arrays_type})
    structref.define_proxy(proxy, type_class, list(fields))
    module_globals[name] = proxy
    return proxy, arrays_type


def construct_with(record, constructor):
    """Build ``record`` objects in Python with ``constructor``: a ``kernel`` (cached on disk)
    ``def new_<record>(*arrays): return <Record>(*arrays)`` in the record's module. numba's own
    constructor (``StructRefProxy.__new__``) is compiled anew in every process that makes one,
    ~0.1-0.3 s per record type: every command, test process and joblib worker paid it."""
    if not config.DISABLE_JIT:
        record._StructRefProxy__numba_ctor = constructor


def _payload(context, builder, typ, value):
    """The record's field struct, found by reading the data pointer of its meminfo directly:
    numba's structref asks the runtime for it (``nrt.meminfo_data``), which refuses to compile
    in a kernel built without reference counting (``_nrt=False``, sim/core/kernels.py)."""
    meminfo = cgutils.create_struct_proxy(typ)(context, builder, value=value).meminfo
    header = builder.bitcast(meminfo, _meminfo_struct_type.as_pointer())
    data = builder.load(cgutils.gep(builder, header, 0, 3))
    payload_type = typ.get_data_type()
    pointer_type = context.data_model_manager[payload_type].get_value_type().as_pointer()
    return cgutils.create_struct_proxy(payload_type)(context, builder, ref=builder.bitcast(data, pointer_type))


def _register(type_class):
    """structref.register with a field getter that also works without reference counting."""
    default_manager.register(type_class, models.StructRefModel)

    @infer_getattr
    class RecordAttribute(AttributeTemplate):
        key = type_class

        def generic_resolve(self, typ, attr):
            return typ.field_dict.get(attr)

    @lower_getattr_generic(type_class)
    def record_getattr(context, builder, typ, value, attr):
        field = getattr(_payload(context, builder, typ, value), attr)
        return imputils.impl_ret_borrowed(context, builder, typ.field_dict[attr], field)

    @lower_setattr_generic(type_class)
    def record_setattr(context, builder, sig, args, attr):
        record_type, value_type = sig.args
        record, value = args
        payload = _payload(context, builder, record_type, record)
        field_type = record_type.field_dict[attr]
        value = context.cast(builder, value, value_type, field_type)
        old = getattr(payload, attr)
        context.nrt.incref(builder, field_type, value)
        context.nrt.decref(builder, field_type, old)
        setattr(payload, attr, value)


def replace_fields(record, **changes):
    """A new record of the same type with the fields ``changes`` names replaced (a namedtuple's
    ``_replace``; the record given is left as it is)."""
    arrays = record if config.DISABLE_JIT else record._as_arrays()
    return type(record).from_arrays(arrays._replace(**changes))
