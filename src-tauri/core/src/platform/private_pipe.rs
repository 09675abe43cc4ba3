//! Named pipes only this user may open, and the users behind a pipe's two ends.
//
// Named pipes share one namespace per machine: any local user may create a name first. The
// security descriptor keeps other users out of a pipe we make; the user behind the other end
// tells a pipe (or a client) of another user's from ours.

use super::sid::{process_user, wide, Sid};
use std::ffi::c_void;
use std::io;
use std::os::windows::io::AsRawHandle;
use tokio::net::windows::named_pipe::{NamedPipeServer, ServerOptions};
use windows_sys::Win32::Foundation::{LocalFree, HANDLE};
use windows_sys::Win32::Security::Authorization::{
    ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1,
};
use windows_sys::Win32::Security::{PSECURITY_DESCRIPTOR, SECURITY_ATTRIBUTES};
use windows_sys::Win32::System::Pipes::{GetNamedPipeClientProcessId, GetNamedPipeServerProcessId};

/// The security descriptor of our pipes: a protected DACL with one entry, full access for `user`.
/// Everyone else, administrators and SYSTEM included, cannot open them.
pub fn owner_only_sddl(user: &Sid) -> io::Result<String> {
    Ok(format!("D:P(A;;GA;;;{})", user.text()?))
}

/// Creates one instance of pipe `name` with the owner-only descriptor; with `first`, only if no
/// pipe of that name exists at all, whoever made it (we never add instances to another's pipe).
pub fn create(name: &str, user: &Sid, first: bool) -> io::Result<NamedPipeServer> {
    let sddl = wide(&owner_only_sddl(user)?);
    let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
    // SAFETY: `sddl` is NUL-terminated; the descriptor the call allocates outlives the create
    // call that copies it into the pipe, and is freed after.
    unsafe {
        if ConvertStringSecurityDescriptorToSecurityDescriptorW(
            sddl.as_ptr(),
            SDDL_REVISION_1,
            &mut descriptor,
            std::ptr::null_mut(),
        ) == 0
        {
            return Err(io::Error::last_os_error());
        }
        let mut attributes = SECURITY_ATTRIBUTES {
            nLength: std::mem::size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: descriptor,
            bInheritHandle: 0,
        };
        let created = ServerOptions::new()
            .first_pipe_instance(first)
            .reject_remote_clients(true)
            .create_with_security_attributes_raw(name, &mut attributes as *mut _ as *mut c_void);
        LocalFree(descriptor as _);
        created
    }
}

/// The process serving the pipe whose client end is `client`.
pub fn server_pid(client: &impl AsRawHandle) -> io::Result<u32> {
    let mut pid = 0u32;
    // SAFETY: the handle is a live pipe client's, for the length of this call.
    if unsafe { GetNamedPipeServerProcessId(client.as_raw_handle() as HANDLE, &mut pid) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(pid)
}

/// The user running the process at the other end of a connected pipe instance `server`.
pub fn client_user(server: &NamedPipeServer) -> io::Result<Sid> {
    let mut pid = 0u32;
    // SAFETY: the handle is a live, connected pipe server's, for the length of this call.
    if unsafe { GetNamedPipeClientProcessId(server.as_raw_handle() as HANDLE, &mut pid) } == 0 {
        return Err(io::Error::last_os_error());
    }
    process_user(pid)
}

/// The user running the process that serves the pipe whose client end is `client`.
pub fn server_user(client: &impl AsRawHandle) -> io::Result<Sid> {
    process_user(server_pid(client)?)
}

/// What tests read back of a pipe.
#[cfg(test)]
pub mod inspect {
    use super::*;
    use windows_sys::Win32::Security::Authorization::{
        ConvertSecurityDescriptorToStringSecurityDescriptorW, GetSecurityInfo, SE_KERNEL_OBJECT,
    };
    use windows_sys::Win32::Security::DACL_SECURITY_INFORMATION;

    /// The DACL the system holds for an open handle, as SDDL.
    pub fn dacl_of(pipe: &impl AsRawHandle) -> String {
        let handle = pipe.as_raw_handle() as HANDLE;
        let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
        let mut text: *mut u16 = std::ptr::null_mut();
        // SAFETY: test-only reads of a live handle's descriptor; both allocations are freed.
        unsafe {
            let rc = GetSecurityInfo(
                handle,
                SE_KERNEL_OBJECT,
                DACL_SECURITY_INFORMATION,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                &mut descriptor,
            );
            assert_eq!(rc, 0, "GetSecurityInfo");
            let ok = ConvertSecurityDescriptorToStringSecurityDescriptorW(
                descriptor,
                SDDL_REVISION_1,
                DACL_SECURITY_INFORMATION,
                &mut text,
                std::ptr::null_mut(),
            );
            assert_ne!(ok, 0, "{}", io::Error::last_os_error());
            let len = (0..).take_while(|&i| *text.add(i) != 0).count();
            let out = String::from_utf16_lossy(std::slice::from_raw_parts(text, len));
            LocalFree(text as _);
            LocalFree(descriptor as _);
            out
        }
    }
}
