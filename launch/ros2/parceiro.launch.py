"""Starts the Parceiro node on ROS 2: `ros2 launch launch/ros2/parceiro.launch.py seat:=0 language:=pt`.

The node is the Node.js program of this repository (`npm ci && npm run build` first) run with the ROS 2
bus. Its settings are ROS parameters of the node `parceiro` (declared with the defaults of config/), so
they can be set here, in a parameters file, or with `ros2 param` tools; without ROS they are the config
values and the command-line flags of `parceiro live`.
"""

import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess
from launch.substitutions import LaunchConfiguration

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))

# name, default, description (the defaults mirror config/: change them there for non-ROS runs too)
PARAMETERS = [
    ('seat', '0', "the robot's seat, 0-3"),
    ('language', 'pt', 'pt or en'),
    ('budget_ms', '2000', "the robot player's time per decision (ms)"),
    ('character', 'warm', 'appraisal character: neutral, competitive or warm'),
    ('speech', 'true', 'speak'),
    ('postures', 'true', 'show postures'),
    ('gaze', 'true', 'move the gaze'),
    ('partner_speech', 'true', 'speak to the partner'),
    ('opponent_speech', 'true', 'speak to the opponents'),
    ('expressiveness', '1.0', 'expressiveness 0..1'),
]


def generate_launch_description():
    args = [
        DeclareLaunchArgument('parceiro_root', default_value=DEFAULT_ROOT, description='the Parceiro checkout (built with npm run build)'),
        DeclareLaunchArgument('port', default_value='7410', description='the table bridge port'),
        DeclareLaunchArgument('host', default_value='127.0.0.1', description='the table bridge address'),
        DeclareLaunchArgument('token', default_value='', description='the table token (generated and printed when empty)'),
        DeclareLaunchArgument('dashboard_port', default_value='7420', description="the operator dashboard's port (0: a free one)"),
        DeclareLaunchArgument('recordings', default_value='recordings', description='the folder of the recordings, relative to parceiro_root'),
    ]
    args += [DeclareLaunchArgument(name, default_value=default, description=text) for name, default, text in PARAMETERS]

    root = LaunchConfiguration('parceiro_root')
    cmd = ['node', [root, '/dist/launch/cli.js'], 'live', '--bus', 'ros2',
           '--host', LaunchConfiguration('host'), '--port', LaunchConfiguration('port'),
           '--token', LaunchConfiguration('token'),
           '--dashboard-port', LaunchConfiguration('dashboard_port'),
           '--recordings', LaunchConfiguration('recordings'),
           '--ros-args']
    for name, _, _ in PARAMETERS:
        cmd += ['-p', [name, ':=', LaunchConfiguration(name)]]

    return LaunchDescription(args + [
        ExecuteProcess(cmd=cmd, cwd=root, output='screen', name='parceiro', emulate_tty=True),
    ])
