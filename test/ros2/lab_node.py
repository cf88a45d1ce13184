"""A lab's own ROS 2 program, as the tests of test/ros2/ drive the node from outside: rclpy, no Parceiro code.

It reads commands on stdin, one JSON object a line, and writes what it gets on stdout, one JSON object a
line (messages as rosidl_runtime_py turns them into dicts: arrays as lists):

  {"op": "subscribe", "topic": "/parceiro/game/state", "type": "parceiro_msgs/msg/GameState",
   "qos": {"reliability": "reliable", "durability": "transient-local", "depth": 1}, "tag": "late"}
      -> {"tag": "late", "topic": ..., "msg": {...}} for every message received
  {"op": "publish", "topic": ..., "type": ..., "qos": {...}, "msg": {...}}
      -> {"published": topic}
  {"op": "info", "topic": ...}
      -> {"info": topic, "publishers": [{"node": ..., "type": ..., "qos": {...}}]}
  {"op": "ping", "id": n} -> {"pong": n}

It prints {"ready": true} once its node is up, and ends with stdin.
"""

import json
import sys
import threading

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rosidl_runtime_py.convert import message_to_ordereddict
from rosidl_runtime_py.set_message import set_message_fields
from rosidl_runtime_py.utilities import get_message

out_lock = threading.Lock()


def emit(obj):
    with out_lock:
        sys.stdout.write(json.dumps(obj) + '\n')
        sys.stdout.flush()


def qos_of(q):
    return QoSProfile(
        history=HistoryPolicy.KEEP_LAST,
        depth=q['depth'],
        reliability=ReliabilityPolicy.RELIABLE if q['reliability'] == 'reliable' else ReliabilityPolicy.BEST_EFFORT,
        durability=DurabilityPolicy.TRANSIENT_LOCAL
        if q['durability'] == 'transient-local'
        else DurabilityPolicy.VOLATILE,
    )


def qos_text(q):
    return {
        'reliability': 'reliable' if q.reliability == ReliabilityPolicy.RELIABLE else 'best-effort',
        'durability': 'transient-local' if q.durability == DurabilityPolicy.TRANSIENT_LOCAL else 'volatile',
        'depth': q.depth,
    }


def main():
    rclpy.init()
    node = rclpy.create_node('lab_program')
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    publishers = {}
    keep = []
    pending = []
    lock = threading.Lock()

    def handle(cmd):
        op = cmd['op']
        if op == 'subscribe':
            topic, tag = cmd['topic'], cmd.get('tag', '')
            cls = get_message(cmd['type'])

            def got(msg, topic=topic, tag=tag):
                emit({'tag': tag, 'topic': topic, 'msg': message_to_ordereddict(msg)})

            keep.append(node.create_subscription(cls, topic, got, qos_of(cmd['qos'])))
            emit({'subscribed': topic, 'tag': tag})
        elif op == 'publish':
            topic = cmd['topic']
            cls = get_message(cmd['type'])
            if topic not in publishers:
                publishers[topic] = node.create_publisher(cls, topic, qos_of(cmd['qos']))
            msg = cls()
            set_message_fields(msg, cmd['msg'])
            publishers[topic].publish(msg)
            emit({'published': topic})
        elif op == 'info':
            infos = node.get_publishers_info_by_topic(cmd['topic'])
            emit({
                'info': cmd['topic'],
                'publishers': [
                    {'node': i.node_name, 'type': i.topic_type, 'qos': qos_text(i.qos_profile)} for i in infos
                ],
            })
        elif op == 'ping':
            emit({'pong': cmd.get('id')})

    def read():
        for line in sys.stdin:
            line = line.strip()
            if line:
                with lock:
                    pending.append(json.loads(line))
        with lock:
            pending.append({'op': 'end'})

    threading.Thread(target=read, daemon=True).start()
    emit({'ready': True})
    try:
        while rclpy.ok():
            with lock:
                cmds, pending[:] = list(pending), []
            for cmd in cmds:
                if cmd['op'] == 'end':
                    return
                try:
                    handle(cmd)
                except Exception as e:  # a bad command is reported, the program goes on
                    emit({'error': f'{cmd.get("op")}: {e}'})
            executor.spin_once(timeout_sec=0.05)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == '__main__':
    main()
