"""What went wrong reaching a broker, in one sentence a person can act on."""

import socket

from controller.mqtt.client import connect_error, refused
from controller.mqtt.url import parse_mqtt_url


def test_a_connection_that_fails_is_one_sentence_naming_the_broker():
    plain, tls = parse_mqtt_url("mqtt://broker.lan"), parse_mqtt_url("mqtts://ann:pw@broker.lan")
    assert connect_error(plain, ConnectionRefusedError(111, "refused")) == \
        "nothing accepts connections at broker.lan:1883: is the broker running, and is the port right?"
    assert "doesn't resolve" in connect_error(plain, socket.gaierror(-2, "Name or service not known"))
    assert "may not speak TLS" in connect_error(tls, ConnectionResetError(104, "reset"))
    assert connect_error(plain, TimeoutError()).startswith("the broker at broker.lan:1883 did not answer")


def test_a_refusal_names_the_user_and_never_the_password():
    said = refused(parse_mqtt_url("mqtts://ann:pw@broker.lan"), "Not authorized")
    assert said == "the broker at broker.lan:8883 refused user ann: wrong user name or password (Not authorized)"
    assert refused(parse_mqtt_url("mqtt://broker.lan"), "Server unavailable").endswith(
        "refused the connection: Server unavailable")
