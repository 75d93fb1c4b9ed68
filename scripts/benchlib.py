"""What the benchmark clients share: plain HTTP on loopback, and getting a device token the way a
person does (sign up or sign in, then Settings → Devices)."""
import http.client
import re
import urllib.parse


class Client:
    def __init__(self, base):
        self.url = urllib.parse.urlparse(base)

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=300)
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        payload = response.read()
        cookies = response.headers.get_all("Set-Cookie") or []
        conn.close()
        return response.status, payload, cookies

    def sign_up(self, username):
        """A new person through the sign-up form; returns their session cookie."""
        _, page, cookies = self.request("GET", "/signup")
        jar = "; ".join(c.split(";")[0] for c in cookies)
        csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode({"csrf": csrf, "display_name": username.title(), "username": username,
                                       "email": f"{username}@bench.example", "birth_date": "1990-01-01",
                                       "password": "bench-password-123"})
        status, _, cookies = self.request("POST", "/signup", form, {"Cookie": jar, "Content-Type": "application/x-www-form-urlencoded"})
        session = next((c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("fh_session=")), None)
        if status != 303 or not session:
            raise SystemExit(f"sign-up of {username} answered HTTP {status}")
        return session

    def sign_in(self, username, password="fieldhouse-demo"):
        """A session cookie for a demo person, through the sign-in form."""
        _, page, cookies = self.request("GET", "/login")
        jar = "; ".join(c.split(";")[0] for c in cookies)
        csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode({"csrf": csrf, "login": username, "password": password})
        status, _, cookies = self.request("POST", "/login", form, {"Cookie": jar, "Content-Type": "application/x-www-form-urlencoded"})
        session = next((c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("fh_session=")), None)
        if status != 303 or not session:
            raise SystemExit(f"sign-in of {username} answered HTTP {status}")
        return session

    def csrf(self, session, path):
        """The form token on a page, as the person with this session sees it."""
        _, page, _ = self.request("GET", path, headers={"Cookie": f"fh_session={session}"})
        return re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()

    def device_token(self, session, name="Bench device"):
        cookie = {"Cookie": f"fh_session={session}"}
        _, page, _ = self.request("GET", "/settings/devices", headers=cookie)
        csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode({"csrf": csrf, "name": name})
        _, page, _ = self.request("POST", "/settings/devices", form, {**cookie, "Content-Type": "application/x-www-form-urlencoded"})
        return re.search(rb'id="token" class="mono copy-field" readonly value="([^"]+)"', page).group(1).decode()

    def turn_on_rewards(self, session):
        """Rewards for arriving by bike, on through the Rewards page: the person's readings then run
        through the cycling state machine in every samples request."""
        cookie = {"Cookie": f"fh_session={session}"}
        _, page, _ = self.request("GET", "/rewards", headers=cookie)
        csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode({"csrf": csrf, "enabled": "on"})
        status, _, _ = self.request("POST", "/rewards/settings", form, {**cookie, "Content-Type": "application/x-www-form-urlencoded"})
        if status != 303:
            raise SystemExit(f"turning rewards on answered HTTP {status}")

    def upload(self, token, filename, data, fields=()):
        boundary = "----fieldhouse-bench"
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields]
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                     f'Content-Type: application/octet-stream\r\n\r\n'.encode() + data + f"\r\n--{boundary}--\r\n".encode())
        status, payload, _ = self.request("POST", "/api/v1/uploads", b"".join(parts), {
            "Authorization": f"Bearer {token}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
        return status, payload
