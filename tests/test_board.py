"""board.py: which board this is, and the emulated-Pi lane's one hook."""

from controller import board
from controller.hw import pinfactory


def test_a_pi_is_known_by_its_device_tree_model(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\0")
    hook = tmp_path / "emulated-pi"
    assert board.model(str(model), str(hook)) == "Raspberry Pi Zero 2 W Rev 1.0"
    assert board.is_raspberry_pi(str(model), str(hook)) and not board.is_emulated(str(model), str(hook))
    model.write_bytes(b"Pine64 RockPro64\0")
    assert not board.is_raspberry_pi(str(model), str(hook))
    assert not board.is_raspberry_pi(str(tmp_path / "none"), str(hook))     # a laptop


def test_the_emulated_pi_hook_counts_only_where_there_is_no_device_tree(tmp_path):
    hook = tmp_path / "emulated-pi"
    hook.write_text("Raspberry Pi 4 Model B Rev 1.5\n")
    none = str(tmp_path / "none")
    assert board.is_raspberry_pi(none, str(hook)) and board.is_emulated(none, str(hook))
    assert board.model(none, str(hook)) == "Raspberry Pi 4 Model B Rev 1.5 (emulated: %s)" % hook
    real = tmp_path / "model"
    real.write_bytes(b"Pine64 RockPro64\0")         # a real device tree wins over the hook
    assert not board.is_raspberry_pi(str(real), str(hook)) and not board.is_emulated(str(real), str(hook))


def test_an_emulated_pi_listens_on_the_lan_but_its_pins_are_simulated(monkeypatch):
    monkeypatch.setattr(board, "is_emulated", lambda: True)
    monkeypatch.setattr(board, "is_raspberry_pi", lambda: True)
    factory, said = pinfactory.choose_pin_factory("auto", environ={})
    try:
        assert pinfactory.is_simulated(factory) and "an emulated Raspberry Pi" in said
    finally:
        factory.close()


def test_a_machine_is_told_by_its_pis_serial_else_its_machine_id_and_never_shown_as_it_is(tmp_path):
    serial, machine_id = tmp_path / "serial-number", tmp_path / "machine-id"
    assert board.machine(str(serial), str(machine_id)) is None
    machine_id.write_text("5f2c0e9d1b8a4c7e9f0a1b2c3d4e5f60\n")
    by_id = board.machine(str(serial), str(machine_id))
    serial.write_bytes(b"10000000c0ffee42\0")
    by_serial = board.machine(str(serial), str(machine_id))
    assert by_id and by_serial and by_id != by_serial and len(by_serial) == 12
    assert "c0ffee42" not in by_serial
    serial.write_bytes(b"10000000c0ffee43\0")
    assert board.machine(str(serial), str(machine_id)) != by_serial            # another Pi, the same card
