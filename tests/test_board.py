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
