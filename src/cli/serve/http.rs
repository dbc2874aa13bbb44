//! The HTTP/1.1 that `gdl serve` speaks, on `std::net`: one request read
//! from a connection within fixed bounds, one response written, and the
//! connection closed (`Connection: close`).
//!
//! Nothing is allocated by a length the client claims: the request line, each
//! header line, the number of headers and the whole head have caps, a body
//! is read only when its `Content-Length` is within the caller's cap, and the
//! whole request must arrive within [`REQUEST_TIME`], so that a slow or
//! hostile client holds a thread for seconds, not for ever.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use super::api_error::ApiError;

/// The longest request line, and the longest header line, with its line end.
const MAX_LINE: usize = 8 * 1024;
/// The most header lines a request may have.
const MAX_HEADERS: usize = 100;
/// The longest head: the request line and every header line.
const MAX_HEAD: usize = 32 * 1024;
/// How long a client has to send its whole request, from its connection.
const REQUEST_TIME: Duration = Duration::from_secs(10);
/// How long one write of the answer may wait for the client to read.
const WRITE_TIME: Duration = Duration::from_secs(10);
/// How long, after the answer, what the client still sends is read and
/// dropped, so that closing with unread bytes does not reset the connection
/// before the client has read the answer.
const LINGER: Duration = Duration::from_secs(2);

/// A request's line and headers.
pub(super) struct Head {
    pub method: String,
    /// The path and the query, as sent: `/api/state?id=3`.
    pub target: String,
    /// Each header as sent, in order, its value without the spaces around it.
    headers: Vec<(String, String)>,
}

impl Head {
    /// The value of each header named `name` (in any case), in order.
    pub fn values<'h>(&'h self, name: &'h str) -> impl Iterator<Item = &'h str> + 'h {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// An answer: a status, its headers (`Content-Length` and `Connection` are
/// added when it is written) and its body.
pub(super) struct Response {
    pub status: u16,
    pub headers: Vec<(&'static str, &'static str)>,
    pub body: Vec<u8>,
}

/// One client's connection, for one request and its answer.
pub(super) struct Connection {
    stream: TcpStream,
    /// When the whole request must have arrived.
    deadline: Instant,
    /// Bytes read from the stream and not yet taken: `buf[start..end]`.
    buf: Box<[u8; 8192]>,
    start: usize,
    end: usize,
    /// Whether the client has sent anything.
    heard: bool,
}

/// Why bytes could not be read: the stream ended, or the time ran out, or
/// another failure of the connection.
enum Stop {
    Ended,
    Late,
    Failed(io::Error),
}

impl Stop {
    /// What to answer when the request stops short at `what`.
    fn refusal(self, what: &str) -> ApiError {
        match self {
            Stop::Ended => ApiError::new(400, format!("error: the request ended in its {what}")),
            Stop::Late => ApiError::new(
                408,
                format!(
                    "error: the request did not arrive within {} seconds (it stopped in its {what})",
                    REQUEST_TIME.as_secs()
                ),
            ),
            Stop::Failed(e) => ApiError::new(400, format!("error: cannot read the request's {what}: {e}")),
        }
    }
}

impl Connection {
    pub fn new(stream: TcpStream) -> Connection {
        // Without these the answer waits for a client that does not read.
        let _ = stream.set_write_timeout(Some(WRITE_TIME));
        let _ = stream.set_nodelay(true);
        Connection {
            stream,
            deadline: Instant::now() + REQUEST_TIME,
            buf: Box::new([0; 8192]),
            start: 0,
            end: 0,
            heard: false,
        }
    }

    /// Reads the request line and the headers. `Ok(None)`: the client sent
    /// nothing before it closed or its time ran out (a browser opens
    /// connections it may not use), so there is no one to answer.
    pub fn read_head(&mut self) -> Result<Option<Head>, ApiError> {
        let mut used = 0;
        // Empty lines before the request line are allowed (RFC 9112, 2.2).
        let line = loop {
            let line = match self.read_line(MAX_LINE) {
                Ok(Some(line)) => line,
                Ok(None) => {
                    return Err(ApiError::new(
                        414,
                        format!("error: the request line is longer than {MAX_LINE} bytes"),
                    ));
                }
                Err(Stop::Ended | Stop::Late) if !self.heard => return Ok(None),
                Err(stop) => return Err(stop.refusal("request line")),
            };
            used += line.len();
            if used > MAX_HEAD {
                return Err(too_large_head());
            }
            if !trim_line_end(&line).is_empty() {
                break line;
            }
        };
        let (method, target) = request_line(trim_line_end(&line))?;
        let mut headers = Vec::new();
        loop {
            let line = match self.read_line(MAX_LINE) {
                Ok(Some(line)) => line,
                Ok(None) => {
                    return Err(ApiError::new(
                        431,
                        format!("error: a header line is longer than {MAX_LINE} bytes"),
                    ));
                }
                Err(stop) => return Err(stop.refusal("headers")),
            };
            used += line.len();
            if used > MAX_HEAD {
                return Err(too_large_head());
            }
            let text = trim_line_end(&line);
            if text.is_empty() {
                break;
            }
            if headers.len() == MAX_HEADERS {
                return Err(ApiError::new(
                    431,
                    format!("error: a request has at most {MAX_HEADERS} headers"),
                ));
            }
            headers.push(header_line(text)?);
        }
        Ok(Some(Head {
            method,
            target,
            headers,
        }))
    }

    /// Reads the body `head` announces, refused unread when it claims more
    /// than `max` bytes or comes in chunks.
    pub fn read_body(&mut self, head: &Head, max: usize) -> Result<Vec<u8>, ApiError> {
        if head.values("Transfer-Encoding").next().is_some() {
            return Err(ApiError::new(
                501,
                "error: a request body in chunks (Transfer-Encoding) is not read here; send its Content-Length",
            ));
        }
        let mut length: Option<&str> = None;
        for value in head.values("Content-Length") {
            if length.is_some_and(|l| l != value) {
                return Err(ApiError::new(
                    400,
                    "error: the request has two different Content-Lengths",
                ));
            }
            length = Some(value);
        }
        let Some(length) = length else {
            return Ok(Vec::new());
        };
        if length.is_empty() || !length.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ApiError::new(
                400,
                format!("error: the Content-Length {length:?} is not a number of bytes"),
            ));
        }
        // Digits only: a number too large for `usize` is over `max` too.
        let length = length.parse::<usize>().unwrap_or(usize::MAX);
        if length > max {
            return Err(ApiError::new(
                413,
                format!("error: a request body is at most {max} bytes"),
            ));
        }
        if length > 0 && self.start == self.end && head.values("Expect").any(|v| v.eq_ignore_ascii_case("100-continue"))
        {
            let _ = self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        let mut body = vec![0; length];
        let mut got = 0;
        while got < length {
            if self.start == self.end {
                self.fill().map_err(|stop| stop.refusal("body"))?;
            }
            let n = (self.end - self.start).min(length - got);
            body[got..got + n].copy_from_slice(&self.buf[self.start..self.start + n]);
            self.start += n;
            got += n;
        }
        Ok(body)
    }

    /// Writes `response` and closes the connection, after reading and
    /// dropping for a while whatever the client still sends (a body that was
    /// not read): closing on unread bytes would reset the connection, and
    /// the client could lose the answer.
    pub fn respond(mut self, response: &Response) {
        if self.write(response).is_err() {
            return;
        }
        let until = Instant::now() + LINGER;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || self.stream.set_read_timeout(Some(left)).is_err() {
                break;
            }
            match self.stream.read(&mut self.buf[..]) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }

    /// Writes `response` and closes the connection at once, without reading
    /// anything: for a server too busy to spend a thread on it.
    pub fn turn_away(mut self, response: &Response) {
        let _ = self.stream.set_write_timeout(Some(Duration::from_secs(1)));
        let _ = self.write(response);
    }

    fn write(&mut self, response: &Response) -> io::Result<()> {
        let mut out = format!("HTTP/1.1 {} {}\r\n", response.status, reason(response.status));
        for (name, value) in &response.headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            response.body.len()
        ));
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(&response.body);
        self.stream.write_all(&bytes)?;
        self.stream.flush()?;
        self.stream.shutdown(Shutdown::Write)
    }

    /// One line, with its line end; `Ok(None)` when it is longer than `max`
    /// bytes (what was read of it is dropped).
    fn read_line(&mut self, max: usize) -> Result<Option<Vec<u8>>, Stop> {
        let mut line = Vec::new();
        loop {
            if self.start == self.end {
                self.fill()?;
            }
            let ready = &self.buf[self.start..self.end];
            let (take, done) = match ready.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (ready.len(), false),
            };
            if line.len() + take > max {
                return Ok(None);
            }
            line.extend_from_slice(&ready[..take]);
            self.start += take;
            if done {
                return Ok(Some(line));
            }
        }
    }

    /// Reads what the client has sent into the empty buffer, waiting no
    /// later than the deadline.
    fn fill(&mut self) -> Result<(), Stop> {
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Stop::Late);
            }
            self.stream.set_read_timeout(Some(left)).map_err(Stop::Failed)?;
            match self.stream.read(&mut self.buf[..]) {
                Ok(0) => return Err(Stop::Ended),
                Ok(n) => {
                    self.start = 0;
                    self.end = n;
                    self.heard = true;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                    return Err(Stop::Late);
                }
                Err(e) => return Err(Stop::Failed(e)),
            }
        }
    }
}

fn too_large_head() -> ApiError {
    ApiError::new(
        431,
        format!("error: a request's line and headers are at most {MAX_HEAD} bytes"),
    )
}

/// A line without its `\n` or `\r\n`.
fn trim_line_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `GET /path?query HTTP/1.1`: the method and the target.
fn request_line(line: &[u8]) -> Result<(String, String), ApiError> {
    let bad = || {
        ApiError::new(
            400,
            format!(
                "error: {:?} is not a request line (METHOD /path HTTP/1.1)",
                String::from_utf8_lossy(line)
            ),
        )
    };
    let text = std::str::from_utf8(line).map_err(|_| bad())?;
    let mut parts = text.split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    if method.is_empty() || !method.bytes().all(is_token) {
        return Err(bad());
    }
    if !target.starts_with('/') || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(bad());
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(bad());
    }
    Ok((method.to_string(), target.to_string()))
}

/// `Name: value`: the name, and the value without the spaces around it.
fn header_line(line: &[u8]) -> Result<(String, String), ApiError> {
    let bad = || {
        let shown: String = String::from_utf8_lossy(line).chars().take(80).collect();
        ApiError::new(400, format!("error: {shown:?} is not a header line (Name: value)"))
    };
    let colon = line.iter().position(|&b| b == b':').ok_or_else(bad)?;
    let (name, value) = (&line[..colon], &line[colon + 1..]);
    // A name ends at its colon, with no space before it; a line that starts
    // with a space would continue the last one (obsolete folding).
    if name.is_empty() || !name.iter().copied().all(is_token) {
        return Err(bad());
    }
    let value = trim_spaces(value);
    if value.iter().any(|&b| b.is_ascii_control() && b != b'\t') {
        return Err(bad());
    }
    Ok((
        String::from_utf8_lossy(name).into_owned(),
        String::from_utf8_lossy(value).into_owned(),
    ))
}

/// `value` without the spaces and tabs around it.
fn trim_spaces(value: &[u8]) -> &[u8] {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let start = value.iter().position(|b| !blank(b)).unwrap_or(value.len());
    let end = value.iter().rposition(|b| !blank(b)).map_or(start, |i| i + 1);
    &value[start..end]
}

/// A character of a method or a header's name (RFC 9110, `tchar`).
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The reason phrase of each status the server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        414 => "URI Too Long",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_line_is_a_token_a_colon_and_a_value() {
        let ok = |line: &str| header_line(line.as_bytes()).map_err(|e| e.status);
        assert_eq!(ok("Host:  localhost:80 \t"), Ok(("Host".into(), "localhost:80".into())));
        assert_eq!(ok("X-Empty:"), Ok(("X-Empty".into(), String::new())));
        // A space before the colon, a folded line, no colon, a control byte.
        for bad in [
            "Host : localhost",
            " Host: localhost",
            "Host localhost",
            "A: b\rc",
            ": b",
        ] {
            assert_eq!(ok(bad), Err(400), "{bad:?}");
        }
    }

    #[test]
    fn a_request_line_is_a_method_a_path_and_http_1() {
        let ok = |line: &str| request_line(line.as_bytes()).map_err(|e| e.status);
        assert_eq!(ok("GET /a?b=c HTTP/1.1"), Ok(("GET".into(), "/a?b=c".into())));
        assert_eq!(ok("POST / HTTP/1.0"), Ok(("POST".into(), "/".into())));
        for bad in [
            "GET http://evil.example/ HTTP/1.1",
            "GET / HTTP/2.0",
            "GET  / HTTP/1.1",
            "GET /",
            "GET / HTTP/1.1 x",
            "G(T / HTTP/1.1",
        ] {
            assert_eq!(ok(bad), Err(400), "{bad:?}");
        }
    }
}
