"""Deserializes CDR messages with rclpy, as a ROS 2 program reads them (for recording.ros2.test.ts).

Reads one JSON object a line on stdin: {"type": "pkg/msg/Name", "cdr": "<hex>"}. Writes one JSON line
a message: {"msg": {...}} with every field of the real message type, or {"error": "..."}; and, for
{"fields": "pkg/msg/Name"}, {"fields": {...}}: the type's fields and their types, nested types
expanded, as rosidl generated them.
"""

import array
import json
import sys

from rclpy.serialization import deserialize_message
from rosidl_runtime_py.utilities import get_message


def plain(value):
    if hasattr(value, 'get_fields_and_field_types'):
        return {name: plain(getattr(value, name)) for name in value.get_fields_and_field_types()}
    if isinstance(value, (list, tuple, array.array)):
        return [plain(v) for v in value]
    if hasattr(value, 'tolist'):  # numpy arrays and scalars
        return plain(value.tolist())
    return value


def fields(type_name):
    cls = get_message(type_name)
    out = {}
    for name, kind in cls.get_fields_and_field_types().items():
        base = kind.split('<')[-1].rstrip('>').split('[')[0]
        out[name] = {'type': kind}
        if '/' in base:
            pkg, msg = base.split('/')
            out[name]['fields'] = fields(f'{pkg}/msg/{msg}')
    return out


for line in sys.stdin:
    request = json.loads(line)
    try:
        if 'fields' in request:
            print(json.dumps({'fields': fields(request['fields'])}), flush=True)
            continue
        cls = get_message(request['type'])
        msg = deserialize_message(bytes.fromhex(request['cdr']), cls)
        print(json.dumps({'msg': plain(msg)}), flush=True)
    except Exception as e:  # noqa: BLE001 - told to the test, which fails on it
        print(json.dumps({'error': f'{type(e).__name__}: {e}'}), flush=True)
