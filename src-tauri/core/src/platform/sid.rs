//! Windows users as security identifiers: who this process runs as, and who another does.

use std::ffi::c_void;
use std::io;
use windows_sys::Win32::Foundation::{CloseHandle, LocalFree, HANDLE};
use windows_sys::Win32::Security::Authorization::ConvertSidToStringSidW;
use windows_sys::Win32::Security::{
    GetLengthSid, GetTokenInformation, TokenUser, PSID, TOKEN_QUERY, TOKEN_USER,
};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, OpenProcess, OpenProcessToken, PROCESS_QUERY_LIMITED_INFORMATION,
};

/// A security identifier (a user), held as its bytes: two SIDs are equal when their bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sid(Vec<u8>);

impl Sid {
    /// # Safety
    /// `sid` points to a valid SID.
    unsafe fn copy(sid: PSID) -> Sid {
        let len = GetLengthSid(sid) as usize;
        Sid(std::slice::from_raw_parts(sid as *const u8, len).to_vec())
    }

    /// Parses the string form (`S-1-5-…`).
    #[cfg(test)]
    pub fn parse(text: &str) -> io::Result<Sid> {
        use windows_sys::Win32::Security::Authorization::ConvertStringSidToSidW;
        let wide = wide(text);
        let mut sid: PSID = std::ptr::null_mut();
        // SAFETY: `wide` is NUL-terminated; the SID the call allocates is copied, then freed.
        unsafe {
            if ConvertStringSidToSidW(wide.as_ptr(), &mut sid) == 0 {
                return Err(io::Error::last_os_error());
            }
            let out = Sid::copy(sid);
            LocalFree(sid as _);
            Ok(out)
        }
    }

    /// The string form (`S-1-5-21-…`), as security descriptors spell it.
    pub fn text(&self) -> io::Result<String> {
        let mut out: *mut u16 = std::ptr::null_mut();
        // SAFETY: self.0 holds a whole SID (copied by `copy`); the string the call allocates is
        // read up to its NUL, then freed.
        unsafe {
            if ConvertSidToStringSidW(self.0.as_ptr() as PSID, &mut out) == 0 {
                return Err(io::Error::last_os_error());
            }
            let len = (0..).take_while(|&i| *out.add(i) != 0).count();
            let text = String::from_utf16_lossy(std::slice::from_raw_parts(out, len));
            LocalFree(out as _);
            Ok(text)
        }
    }
}

pub(crate) fn wide(text: &str) -> Vec<u16> {
    text.encode_utf16().chain(std::iter::once(0)).collect()
}

/// Closes a handle when dropped.
struct Owned(HANDLE);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: the handle was opened by us and is closed once.
        unsafe { CloseHandle(self.0) };
    }
}

/// The user a process token belongs to.
fn token_user(token: &Owned) -> io::Result<Sid> {
    let mut len = 0u32;
    // SAFETY: the first call only reports the size; the buffer (u64s, so aligned for TOKEN_USER)
    // holds `len` bytes for the second, whose SID points into that buffer and is copied out.
    unsafe {
        GetTokenInformation(token.0, TokenUser, std::ptr::null_mut(), 0, &mut len);
        if len == 0 {
            return Err(io::Error::last_os_error());
        }
        let mut buf = vec![0u64; (len as usize).div_ceil(8)];
        let ptr = buf.as_mut_ptr() as *mut c_void;
        if GetTokenInformation(token.0, TokenUser, ptr, len, &mut len) == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Sid::copy((*(ptr as *const TOKEN_USER)).User.Sid))
    }
}

fn process_token(process: HANDLE) -> io::Result<Owned> {
    let mut token: HANDLE = std::ptr::null_mut();
    // SAFETY: `process` is a live process handle; the token handle is owned from here on.
    if unsafe { OpenProcessToken(process, TOKEN_QUERY, &mut token) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(Owned(token))
}

/// The user this process runs as.
pub fn current_user() -> io::Result<Sid> {
    // SAFETY: the pseudo-handle of the current process needs no closing.
    token_user(&process_token(unsafe { GetCurrentProcess() })?)
}

/// The user process `pid` runs as.
pub fn process_user(pid: u32) -> io::Result<Sid> {
    // SAFETY: a plain Win32 call; the handle is owned (and closed) from here on.
    let process = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if process.is_null() {
        return Err(io::Error::last_os_error());
    }
    let process = Owned(process);
    token_user(&process_token(process.0)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_runs_as_the_current_user_and_system_is_someone_else() {
        let me = current_user().unwrap();
        assert!(me.text().unwrap().starts_with("S-1-5-"), "{me:?}");
        assert_eq!(process_user(std::process::id()).unwrap(), me);
        assert_eq!(Sid::parse(&me.text().unwrap()).unwrap(), me);
        assert_ne!(Sid::parse("S-1-5-18").unwrap(), me);
    }
}
