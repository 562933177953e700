"""A job's event stream and a client that stops reading it (docs/serve.md, "Server-Sent Events").

Starts `koten-ocr serve` (ppocr, this checkout's .deps/models), posts a zip of PAGES small pages as one job, and,
when STALLED is 1, opens the job's event stream from a socket with a 1 KB receive buffer that is never read. When
the job is done it prints the server's resident memory and high-water mark (Linux /proc), then stops the server.
Run in the peers venv (NumPy and OpenCV make the page):
  .deps/peers/bin/python scripts/bench/sse_stalled_client.py .build/release/koten-ocr 1000 1
"""
import io, json, os, re, shutil, socket, subprocess, sys, tempfile, time, urllib.request, zipfile
import numpy as np, cv2
binary, pages, stalled = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
work = tempfile.mkdtemp(prefix="sse-work-")
img = np.full((96, 320, 3), 255, np.uint8)
cv2.putText(img, "abc", (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 0), 3)
ok, png = cv2.imencode(".png", img)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    for i in range(pages): z.writestr(f"p{i:04d}.png", png.tobytes())
server = subprocess.Popen([binary, "serve", "--port", "0", "--work-dir", work, "--max-pages", str(pages),
                           "--models", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".deps", "models")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
line = server.stdout.readline()
port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
base = f"http://127.0.0.1:{port}"
boundary = "xxBOUNDARYxx"
body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"pages.zip\"\r\n"
        f"Content-Type: application/zip\r\n\r\n").encode() + buf.getvalue() + f"\r\n--{boundary}--\r\n".encode()
req = urllib.request.Request(base + "/v1/jobs", data=body, headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
job = json.load(urllib.request.urlopen(req))
jid = job["id"]
if stalled:
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024); s.connect(("127.0.0.1", port))
    s.sendall(f"GET /v1/jobs/{jid}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
while True:
    state = json.load(urllib.request.urlopen(base + f"/v1/jobs/{jid}"))
    if state["state"] in ("done", "cancelled", "failed"): break
    time.sleep(1)
time.sleep(2)
status = open(f"/proc/{server.pid}/status").read()
rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) // 1024
hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) // 1024
snap = len(json.dumps(state))
print(f"pages {pages} stalled {int(stalled)}: server resident {rss} MB, high-water mark {hwm} MB (a status snapshot {snap} bytes)")
server.terminate(); server.wait()
shutil.rmtree(work, ignore_errors=True)
