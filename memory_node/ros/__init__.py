"""ROS 2 glue: the only subpackage that imports rclpy and the generated messages."""
