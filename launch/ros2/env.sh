# The ROS 2 environment of the node and its tests, in one place: `source launch/ros2/env.sh` from bash
# (CI's .ci/run does the same). It
#   1. sources ROS 2: $PARCEIRO_ROS_SETUP, or /opt/ros/$ROS_DISTRO/setup.bash (jazzy when unset);
#   2. builds the interface package robot/parceiro_msgs with colcon when it is missing or older than
#      its sources, into .ros2/ (build, install, log: ignored by git), and sources it;
#   3. has rclnodejs generate its JavaScript for parceiro_msgs when rclnodejs is installed and lacks
#      it or has an older one (rclnodejs generates at `npm ci` only what is sourced then).
# Then `npm ci` (which builds rclnodejs against this ROS 2), `--bus ros2` and the ROS 2 tests
# (test/ros2/) run. Safe to source again. Cyclone DDS unless RMW_IMPLEMENTATION says otherwise.
# shellcheck shell=bash

parceiro_ros2_env() {
  local root setup distro
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  distro="${ROS_DISTRO:-jazzy}"
  setup="${PARCEIRO_ROS_SETUP:-/opt/ros/$distro/setup.bash}"
  if [ ! -f "$setup" ]; then
    echo "launch/ros2/env.sh: no ROS 2 at $setup (install it, or set PARCEIRO_ROS_SETUP to its setup.bash)" >&2
    return 1
  fi
  # Debian's python3 (the one with empy, lark and yaml that ROS 2's tools need) before any other.
  case ":$PATH:" in
    :/usr/bin:*) ;;
    *) export PATH="/usr/bin:$PATH" ;;
  esac
  export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_cyclonedds_cpp}"
  # ROS 2's setup scripts read variables that may be unset: not under `set -u`.
  local had_u=0
  case $- in *u*) had_u=1 && set +u ;; esac
  # shellcheck disable=SC1090
  source "$setup"

  local out="$root/.ros2"
  local stamp="$out/install/parceiro_msgs/share/parceiro_msgs/package.xml"
  if [ ! -f "$stamp" ] || [ -n "$(find "$root/robot/parceiro_msgs" -newer "$stamp" -print -quit)" ]; then
    echo "launch/ros2/env.sh: building parceiro_msgs into .ros2/" >&2
    (cd "$root" && colcon --log-base "$out/log" build --base-paths robot/parceiro_msgs \
      --build-base "$out/build" --install-base "$out/install") \
      >&2 || { [ $had_u = 1 ] && set -u; return 1; }
    touch "$stamp"
  fi
  # shellcheck disable=SC1091
  source "$out/install/setup.bash"

  local generated="$root/node_modules/rclnodejs/generated/parceiro_msgs"
  if [ -d "$root/node_modules/rclnodejs" ] &&
    { [ ! -d "$generated" ] || [ "$stamp" -nt "$generated" ]; }; then
    echo "launch/ros2/env.sh: generating rclnodejs's messages for parceiro_msgs" >&2
    (cd "$root" && npx --no-install generate-ros-messages >/dev/null) || { [ $had_u = 1 ] && set -u; return 1; }
    touch "$generated"
  fi
  [ $had_u = 1 ] && set -u
  return 0
}
parceiro_ros2_env
