//! The Host check every companion server makes, whatever its protocol: any other name may be a
//! web page reaching loopback through DNS rebinding.

use http::{header, HeaderMap};

/// The names a server answers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hosts {
    /// `127.0.0.1:PORT` and `localhost:PORT`; `None` for a unix socket, where the one name is
    /// a bare `localhost` (what Copilot CLI sends).
    pub port: Option<u16>,
    /// With containers on, `host.docker.internal:PORT` on the port containers reach.
    pub container_port: Option<u16>,
}

impl Hosts {
    /// Every `name:port` allowed, for a library that takes a list.
    pub fn names(&self) -> Vec<String> {
        let Some(port) = self.port else {
            return vec!["localhost".to_owned()];
        };
        let mut names = vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")];
        if let Some(p) = self.container_port {
            names.push(format!("{}:{p}", crate::workspace::container::HOST_NAME));
        }
        names
    }

    /// True for exactly one Host header naming this server; a repeated one is never trusted.
    pub fn allow(&self, headers: &HeaderMap) -> bool {
        let mut values = headers.get_all(header::HOST).iter();
        let (Some(host), None) = (values.next(), values.next()) else {
            return false;
        };
        let Some(own) = self.port else {
            return host.as_bytes().eq_ignore_ascii_case(b"localhost");
        };
        let Some((name, port)) = host.to_str().ok().and_then(|h| h.rsplit_once(':')) else {
            return false;
        };
        let Ok(port) = port.parse::<u16>() else {
            return false;
        };
        let loopback =
            port == own && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"));
        let container = self.container_port == Some(port)
            && name.eq_ignore_ascii_case(crate::workspace::container::HOST_NAME);
        loopback || container
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn with_hosts(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append(header::HOST, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn loopback_names_on_the_port_and_the_container_name_only_when_on() {
        let off = Hosts {
            port: Some(4000),
            container_port: None,
        };
        let on = Hosts {
            port: Some(4000),
            container_port: Some(4001),
        };
        for ok in ["127.0.0.1:4000", "localhost:4000", "LOCALHOST:4000"] {
            assert!(off.allow(&with_hosts(&[ok])), "{ok}");
        }
        for bad in [
            "127.0.0.1:4001",
            "127.0.0.1",
            "evil.example:4000",
            "127.0.0.1:04000x",
            "host.docker.internal:4001",
            "",
        ] {
            assert!(!off.allow(&with_hosts(&[bad])), "{bad}");
        }
        assert!(!off.allow(&HeaderMap::new()));
        assert!(on.allow(&with_hosts(&["host.docker.internal:4001"])));
        assert!(!on.allow(&with_hosts(&["host.docker.internal:4000"])));
        assert!(!on.allow(&with_hosts(&["127.0.0.1:4000", "127.0.0.1:4000"])));
    }

    #[test]
    fn a_socket_answers_to_a_bare_localhost_only() {
        let socket = Hosts {
            port: None,
            container_port: None,
        };
        assert!(socket.allow(&with_hosts(&["localhost"])));
        assert!(socket.allow(&with_hosts(&["LocalHost"])));
        for bad in ["localhost:80", "127.0.0.1", "evil.example", ""] {
            assert!(!socket.allow(&with_hosts(&[bad])), "{bad}");
        }
        assert!(!socket.allow(&with_hosts(&["localhost", "localhost"])));
        assert_eq!(socket.names(), ["localhost"]);
    }
}
