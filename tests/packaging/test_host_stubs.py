"""The failing stubs of packaging/host_stubs.py on copies of this machine's libraries, as the bundle
takes them: Berkeley DB under libjack, GSSAPI under Qt Network and libsystemd under libdbus become
small stubs, Kerberos and libgcrypt go, and, in new processes that load them first (LD_LIBRARY_PATH),
PortAudio still initializes and lists its host APIs (JACK's metadata call fails cleanly instead of
crashing), Qt Network's local socket, the app's control channel (`earshot toggle`), carries a
message, and libdbus initializes (systemd passed it no sockets, as always for a client)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from earshot_testing import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "packaging"))
from blas_shim import symbols
from build_linux import elf_files_under
from host_stubs import FAILING_LIBRARIES, ORPHANS, stub_host_libraries

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF stubs are built on Linux")
HOST_LIBS = Path("/usr/lib/x86_64-linux-gnu")
COPIED = ("libportaudio.so.2", "libjack.so.0", "libdb-5.3.so", "libgssapi_krb5.so.2", "libkrb5.so.3",
          "libk5crypto.so.3", "libkrb5support.so.0", "libcom_err.so.2", "libkeyutils.so.1", "libdbus-1.so.3",
          "libsystemd.so.0", "libgcrypt.so.20", "libgpg-error.so.0", "liblz4.so.1", "libcap.so.2",
          "liblzma.so.5", "libzstd.so.1")


@pytest.fixture(scope="module")
def stubbed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder like the bundle's _internal: the host's PortAudio, JACK, DB, GSSAPI and Kerberos
    libraries and PySide6's Qt Network (GSSAPI's user), then stubbed."""
    import PySide6

    missing = [name for name in COPIED if not (HOST_LIBS / name).exists()]
    if missing:
        pytest.skip(f"this machine lacks {missing} (apt-get install libportaudio2 libgssapi-krb5-2)")
    folder = tmp_path_factory.mktemp("internal")
    for name in COPIED:
        shutil.copy2((HOST_LIBS / name).resolve(), folder / name)
    shutil.copy2(Path(PySide6.__file__).parent / "Qt" / "lib" / "libQt6Network.so.6", folder / "libQt6Network.so.6")
    assert stub_host_libraries(folder, elf_files_under(folder)) > 5_000_000  # libdb 1.8 MB, Kerberos 1.5, systemd 2.5
    return folder


def _run(folder: Path, script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True, text=True, timeout=120,
                          env={"LD_LIBRARY_PATH": str(folder), "QT_QPA_PLATFORM": "offscreen"})


def test_stubs_are_small_define_what_their_users_import_and_kerberos_is_gone(stubbed: Path) -> None:
    for name in FAILING_LIBRARIES:
        assert (stubbed / name).stat().st_size < 64_000
    assert {"db_create", "db_env_create", "db_strerror"} <= symbols(stubbed / "libdb-5.3.so", "--defined-only")
    network_imports = symbols(stubbed / "libQt6Network.so.6", "--undefined-only")
    gss = {name for name in network_imports if name.startswith(("gss_", "GSS_"))}
    assert len(gss) >= 9 and gss <= symbols(stubbed / "libgssapi_krb5.so.2", "--defined-only")
    assert {"sd_listen_fds", "sd_is_socket"} <= symbols(stubbed / "libsystemd.so.0", "--defined-only")
    assert not [p.name for p in stubbed.iterdir() if p.name.startswith(ORPHANS)]


PORTAUDIO = '''
import ctypes, sys
pa = ctypes.CDLL(sys.argv[1] + "/libportaudio.so.2")
assert pa.Pa_Initialize() == 0
print("host APIs", pa.Pa_GetHostApiCount())
jack = ctypes.CDLL(sys.argv[1] + "/libjack.so.0")
print("jack metadata", jack.jack_get_all_properties(ctypes.byref(ctypes.c_void_p())))
maps = open("/proc/self/maps").read()
print("stub db loaded", sys.argv[1] + "/libdb-5.3.so" in maps)
pa.Pa_Terminate()
'''


def test_portaudio_initializes_over_the_stubbed_berkeley_db(stubbed: Path) -> None:
    result = _run(stubbed, PORTAUDIO)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert int(lines[0].split()[-1]) >= 1  # ALSA at least (and OSS)
    assert lines[1:] == ["jack metadata -1", "stub db loaded True"]


QT_LOCAL_SOCKET = '''
import sys
from PySide6.QtCore import QCoreApplication
from PySide6.QtNetwork import QLocalServer, QLocalSocket
app = QCoreApplication([])
server = QLocalServer()
QLocalServer.removeServer("earshot-stub-test")
assert server.listen("earshot-stub-test"), server.errorString()
client = QLocalSocket()
client.connectToServer("earshot-stub-test")
assert client.waitForConnected(5000)
assert server.waitForNewConnection(5000)
peer = server.nextPendingConnection()
client.write(b"toggle\\n")
client.flush()
assert peer.waitForReadyRead(5000)
print(bytes(peer.readAll()).decode().strip())
maps = open("/proc/self/maps").read()
print("stub gssapi loaded", sys.argv[1] + "/libgssapi_krb5.so.2" in maps, "kerberos loaded", "libkrb5.so" in maps)
'''


def test_qt_local_socket_works_over_the_stubbed_gssapi(stubbed: Path) -> None:
    result = _run(stubbed, QT_LOCAL_SOCKET)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["toggle", "stub gssapi loaded True kerberos loaded False"]


DBUS = '''
import ctypes, sys
dbus = ctypes.CDLL(sys.argv[1] + "/libdbus-1.so.3")
print("threads", dbus.dbus_threads_init_default())
print("sockets passed", ctypes.CDLL(sys.argv[1] + "/libsystemd.so.0").sd_listen_fds(0))
maps = open("/proc/self/maps").read()
print("stub systemd loaded", sys.argv[1] + "/libsystemd.so.0" in maps, "libgcrypt loaded", "libgcrypt" in maps)
'''


def test_libdbus_initializes_over_the_stubbed_libsystemd(stubbed: Path) -> None:
    result = _run(stubbed, DBUS)
    assert result.returncode == 0, result.stderr
    expected = ["threads 1", "sockets passed 0", "stub systemd loaded True libgcrypt loaded False"]
    assert result.stdout.splitlines() == expected
