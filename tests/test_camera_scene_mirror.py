"""The simulated camera shows what the table deals, and never the burn card."""

from devices.camera.sim_camera import SimCamera
from studio.table.camera_scene import mirror_on_camera
from studio.table.hub import Hub


def test_dealt_cards_appear_where_dealt_and_clear_at_the_next_round():
    hub, cam = Hub(), SimCamera("napoletane", positions=3, seed=1)
    stop = mirror_on_camera(hub, "t1", cam)
    hub.publish("t1", "public", {"type": "card_burned", "source": "shoe"})
    hub.publish("t1", "public", {"type": "card_dealt", "card": "7c", "to": "position",
                                 "position": 2})
    hub.publish("t1", "public", {"type": "card_dealt", "card": "Kd", "to": "dealer",
                                 "position": None})
    hub.publish("t2", "public", {"type": "card_dealt", "card": "Ac", "to": "dealer",
                                 "position": None})  # another table's card
    placed = {(p.code, p.area) for p in cam.cards}
    assert {c for c, _ in placed} == {"7c", "Kd"}
    hub.publish("t1", "public", {"type": "card_dealt", "card": "7c", "to": "position",
                                 "position": 2})  # a repeat cannot break the picture
    hub.publish("t1", "public", {"type": "betting_opened", "round_id": "r2"})
    assert cam.cards == []
    stop()
    hub.publish("t1", "public", {"type": "card_dealt", "card": "5b", "to": "dealer",
                                 "position": None})
    assert cam.cards == []
