"""Message builders shared by the ROS tests (importable because conftest puts this folder on sys.path)."""

from geometry_msgs.msg import Point

from memory_node.msg import Entity, Relation, SceneGraph
from memory_node.ros.conversions import ns_to_stamp

S = 1_000_000_000
T0 = 1_600_000_000 * S  # event time of the experience: replayed, far from the wall clock


def entity(id, label, room="kitchen", x=0.0, states=(), **attrs):
    return Entity(id=id, label=label, room=room, position=Point(x=x, y=1.0, z=0.8), states=list(states),
                  attribute_keys=list(attrs), attribute_values=list(attrs.values()), confidence=1.0)


def graph(t_ns, entities, relations, room="kitchen", complete=False):
    msg = SceneGraph(source="test", room=room, complete=complete, entities=entities,
                     relations=[Relation(subject=s, predicate=p, object=o) for s, p, o in relations])
    msg.header.stamp = ns_to_stamp(t_ns)
    msg.header.frame_id = "map"
    return msg
