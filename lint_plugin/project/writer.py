"""The one guarded writer: every byte archsync writes into a project goes through here.

A fix replaces a file the user may be editing, inside a tree whose directories may be
swapped for links while it runs. So the writer:

- walks from the project root one directory at a time without following a link
  (`O_NOFOLLOW` on each component, then works relative to the directory it holds), so a
  directory swapped for a link mid-run cannot send a write outside the root;
- refuses a target that is a link, not a regular file, read-only, hard-linked (a rename
  would break the link) or owned by someone else (a rename would change the owner);
- writes a temporary file beside the target, then re-reads the target right before the
  rename; on Linux the rename is an exchange (`renameat2(RENAME_EXCHANGE)`), after which
  the bytes that were in place an instant ago are compared once more, and swapped back if
  they changed: an edit that lands during the write is never lost;
- removes its temporary file on every error and interrupt, and the temporaries of earlier
  runs that were killed (their process is gone).

Where the platform has no directory descriptors (Windows), it checks the resolved path
and uses `os.replace`.
"""
from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads this name as True)
if TYPE_CHECKING:  # a warm check reads its record through here, before typing, pathlib or the configuration
    from pathlib import Path
    from typing import Callable, List, Mapping, Optional, Tuple, Union

_RENAME_EXCHANGE = 2
_HAS_DIR_FD = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW")


class WriteRefused(Exception):
    """A write archsync will not make; the message says why, in a few words."""


def replace_checked(root: Path, rel: str, expected: bytes, data: bytes,
                    before_rename: Optional[Callable[[], None]] = None) -> None:
    """Replace `root/rel`, which must still hold `expected`, with `data`.

    Raises WriteRefused (nothing written) or OSError. `before_rename` is a test hook run
    between the last check and the rename: the window a concurrent edit could hit.
    """
    if not _HAS_DIR_FD:
        _replace_by_path(root, rel, expected, data, before_rename)
        return
    directory, name, _ = _open_parent(root, rel, create=False)
    try:
        _replace_in(directory, name, expected, data, before_rename)
    finally:
        os.close(directory)


def create_new(root: Path, rel: str, data: bytes) -> None:
    """Create `root/rel` holding `data`, whole or not at all, never over a file that appeared meanwhile.

    For a file the user owns from then on (`archsync init`'s pyproject.toml): the mode follows
    the umask. Raises WriteRefused (nothing written) or OSError.
    """
    mask = os.umask(0o022)
    os.umask(mask)
    mode = 0o666 & ~mask
    if not _HAS_DIR_FD:
        target = root / rel
        _check_inside(root, target.parent)
        try:
            with open(target, "xb") as handle:
                handle.write(data)
        except FileExistsError:
            raise WriteRefused("created by someone else meanwhile") from None
        return
    directory, name, _ = _open_parent(root, rel, create=False)
    try:
        temporary = _write_temporary(directory, name, data, mode)
        try:  # a hard link is created whole, and never over an existing name
            os.link(temporary, name, src_dir_fd=directory, dst_dir_fd=directory, follow_symlinks=False)
        except FileExistsError:
            raise WriteRefused("created by someone else meanwhile") from None
        finally:
            _unlink_quietly(temporary, directory)
    finally:
        os.close(directory)


def write_private(root: Path, rel: str, data: bytes, markers: Optional[Mapping[str, bytes]] = None) -> None:
    """Atomically write `root/rel` (a cache file), creating its directories, never through a link.

    `markers` are files to create beside it if absent (`CACHEDIR.TAG`, a `.gitignore` of `*`), each whole
    or not at all, never overwritten or followed, and only in a directory that is archsync's: one this call
    creates, or one holding one of them as written here. In a directory someone else made, a `.gitignore`
    of `*` would hide their files from git.
    Not synced to disk: a cache torn by a power cut is rejected when it is read, and rebuilt.
    """
    if not _HAS_DIR_FD:
        target = root / rel
        created = not os.path.lexists(target.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        _check_inside(root, target.parent)
        if markers and (created or any(_holds(str(target.parent / m), t) for m, t in markers.items())):
            for marker, text in markers.items():
                if not os.path.lexists(target.parent / marker):
                    (target.parent / marker).write_bytes(text)
        staged = target.with_name(_temp_name(target.name))
        try:
            staged.write_bytes(data)
            os.replace(staged, target)
        finally:
            _unlink_quietly(str(staged))
        return
    directory, name, created = _open_parent(root, rel, create=True)
    try:
        if markers and (created or any(_holds(m, t, directory) for m, t in markers.items())):
            for marker, text in markers.items():
                _create_marker(directory, marker, text)
        try:
            st = os.stat(name, dir_fd=directory, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
                raise WriteRefused(f"{rel} is not a regular file")
        except FileNotFoundError:
            pass
        temporary = _write_temporary(directory, name, data, 0o644, durable=False)
        try:
            os.replace(temporary, name, src_dir_fd=directory, dst_dir_fd=directory)
        finally:
            _unlink_quietly(temporary, directory)
    finally:
        os.close(directory)


def _holds(name: str, text: bytes, directory: Optional[int] = None) -> bool:
    """Does the file `name` (never followed if a link) hold exactly `text`?"""
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0), dir_fd=directory)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as handle:
        return handle.read(len(text) + 1) == text


def _create_marker(directory: int, marker: str, text: bytes) -> None:
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=directory)
    except FileExistsError:
        return  # present, or a link: left alone either way
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text)
    except BaseException:  # a full disk: no half marker left to be taken for someone else's file
        _unlink_quietly(marker, directory)
        raise


def read_private(root: "Union[Path, str]", rel: str) -> Optional[bytes]:
    """The bytes of `root/rel` read without following a link on the way; None if absent or a link."""
    if not _HAS_DIR_FD:
        from pathlib import Path

        try:
            _check_inside(Path(root), (Path(root) / rel).parent)
            return (Path(root) / rel).read_bytes()
        except (FileNotFoundError, WriteRefused):
            return None
    try:
        directory, name, _ = _open_parent(root, rel, create=False)
    except (FileNotFoundError, NotADirectoryError, WriteRefused):
        return None
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=directory)
    except (FileNotFoundError, OSError) as exc:
        if isinstance(exc, FileNotFoundError) or exc.errno == errno.ELOOP:
            return None
        raise
    finally:
        os.close(directory)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


# -- with directory descriptors ---------------------------------------------------------------

def _open_parent(root: "Union[Path, str]", rel: str, create: bool) -> Tuple[int, str, bool]:
    """The directory holding `rel`, opened without following a link on the way, its file name, and
    whether this call created that directory (`create`: the missing directories are made)."""
    parts = [p for p in rel.replace(os.sep, "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts or os.path.isabs(rel):  # an absolute path is not read as one under the root
        raise WriteRefused(f"{rel} is not a path inside the project")
    fd = os.open(str(root), os.O_RDONLY | os.O_DIRECTORY)
    created = False
    try:
        for part in parts[:-1]:
            created = False
            if create:
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                    created = True
                except FileExistsError:
                    pass
            try:
                child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise WriteRefused(f"{'/'.join(parts[:parts.index(part) + 1])} is a link or not a directory; "
                                       f"archsync does not write through it") from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd, parts[-1], created


def _replace_in(directory: int, name: str, expected: bytes, data: bytes,
                before_rename: Optional[Callable[[], None]]) -> None:
    try:
        st = os.stat(name, dir_fd=directory, follow_symlinks=False)
    except FileNotFoundError:
        raise WriteRefused("removed since it was read") from None
    if stat.S_ISLNK(st.st_mode):
        raise WriteRefused("a symbolic link; archsync does not write through it")
    if not stat.S_ISREG(st.st_mode):
        raise WriteRefused("not a regular file")
    if not st.st_mode & 0o222:
        raise WriteRefused("read-only")
    if st.st_nlink > 1:
        raise WriteRefused(f"has {st.st_nlink} hard links; replacing it would break them")
    old = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=directory)
    try:
        if _read_all(old) != expected:
            raise WriteRefused("changed since it was read")
        _remove_stale_temporaries(directory, name)
        temporary = _write_temporary(directory, name, data, st.st_mode & 0o7777, st)
        try:
            if before_rename is not None:
                before_rename()
            if _read_all(old) != expected or not _same_file(directory, name, st):
                raise WriteRefused("changed while it was being fixed")
            if _exchange(directory, temporary, name):
                # `temporary` now holds what was in place an instant ago: the file we checked, unchanged?
                try:
                    unchanged = _same_file(directory, temporary, st) and _read_all(old) == expected
                except BaseException:
                    _exchange(directory, temporary, name)
                    raise
                if not unchanged:
                    _exchange(directory, temporary, name)  # put the user's file back
                    raise WriteRefused("changed while it was being fixed")
            else:
                os.replace(temporary, name, src_dir_fd=directory, dst_dir_fd=directory)
        finally:
            _unlink_quietly(temporary, directory)  # our new bytes, or the checked old ones: never the user's edit
    finally:
        os.close(old)


def _write_temporary(directory: int, name: str, data: bytes, mode: int,
                     like: Optional[os.stat_result] = None, durable: bool = True) -> str:
    temporary = _temp_name(name)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if like is not None and hasattr(os, "fchown") and like.st_uid != os.geteuid():
                try:
                    os.fchown(handle.fileno(), like.st_uid, like.st_gid)
                except PermissionError:
                    raise WriteRefused("owned by another user; replacing it would change its owner") from None
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
    except BaseException:
        _unlink_quietly(temporary, directory)
        raise
    return temporary


def _temp_name(name: str) -> str:
    return f".{name}.archsync-{os.getpid()}-{os.urandom(4).hex()}.tmp"


def _read_all(fd: int) -> bytes:
    chunks: List[bytes] = []
    offset = 0
    while True:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


def _same_file(directory: int, name: str, st: os.stat_result) -> bool:
    try:
        now = os.stat(name, dir_fd=directory, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (now.st_ino, now.st_dev) == (st.st_ino, st.st_dev)


_renameat2: Optional[Callable[..., int]] = None
_renameat2_checked = False


def _exchange(directory: int, first: str, second: str) -> bool:
    """Swap two names of one directory atomically; False where the system cannot (then nothing happened)."""
    global _renameat2, _renameat2_checked
    import ctypes  # here: importing it costs every run that never swaps a file (a check without fixes)

    if not _renameat2_checked:
        _renameat2_checked = True
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            _renameat2 = libc.renameat2
        except (OSError, AttributeError):
            _renameat2 = None
    if _renameat2 is None:
        return False
    result = _renameat2(directory, os.fsencode(first), directory, os.fsencode(second), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code))


def _remove_stale_temporaries(directory: int, name: str) -> None:
    """Temporaries of `name` left by runs that were killed before they could clean up."""
    from ..config.cache_dir import TEMPORARY

    try:
        entries = os.listdir(directory)
    except OSError:
        return
    for entry in entries:
        match = TEMPORARY.fullmatch(entry)
        if match and match.group("name") == name and not _alive(int(match.group("pid"))):
            _unlink_quietly(entry, directory)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _unlink_quietly(name: str, directory: Optional[int] = None) -> None:
    try:
        if directory is None:
            os.unlink(name)
        else:
            os.unlink(name, dir_fd=directory)
    except OSError:
        pass


# -- without directory descriptors ------------------------------------------------------------

def _check_inside(root: Path, directory: Path) -> None:
    try:
        directory.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        raise WriteRefused(f"{directory} is outside the project") from None


def _replace_by_path(root: Path, rel: str, expected: bytes, data: bytes,
                     before_rename: Optional[Callable[[], None]]) -> None:
    target = root / rel
    _check_inside(root, target.parent)
    if target.is_symlink():
        raise WriteRefused("a symbolic link; archsync does not write through it")
    st = target.stat()
    if not st.st_mode & 0o222:
        raise WriteRefused("read-only")
    if target.read_bytes() != expected:
        raise WriteRefused("changed since it was read")
    temporary = target.with_name(_temp_name(target.name))
    try:
        temporary.write_bytes(data)
        os.chmod(temporary, st.st_mode & 0o7777)
        if before_rename is not None:
            before_rename()
        if target.read_bytes() != expected:
            raise WriteRefused("changed while it was being fixed")
        os.replace(temporary, target)
    finally:
        _unlink_quietly(str(temporary))
