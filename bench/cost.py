#!/usr/bin/env python3
"""The cost model, measured: crafted requests against normal ones of the same endpoint and size.

One release server with one worker thread; each case's body is sent alone (a new connection each
time), and the server's CPU time (the sum of its threads' run time in /proc/PID/task/*/schedstat)
and its peak resident memory above idle (VmHWM after `clear_refs`) are read around it. A case's
ratio is its CPU per body byte over its endpoint's normal case's, in the same run; memory is peak
bytes above idle per body byte. `make bench` writes the table into BENCHMARKS.md ("Cost model");
`--check` exits 1 when a crafted case passes the targets (3× the CPU per byte, 12 bytes per byte).
"""
import argparse
import json
import os
import re
import socket
import statistics
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the benchmark driver's helpers; it puts scripts/ on sys.path)
from trellis_harness import Trellis, free_port  # noqa: E402

CPU_TARGET = 3.0
MEMORY_TARGET = 12.0
# Bodies smaller than this are dominated by fixed costs: their memory is given in bytes, not per byte.
SMALL = 64 << 10


def post(port, path, body):
    """Sends one request on its own connection; returns (status, answer bytes). For a 422 refused at the answer
    bound, the answer bytes are the bound: what the writer held when it stopped."""
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port)) as s:
        try:
            s.sendall(head + body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the whole body was read (503, 413): its answer may still be there
        chunks = []
        while True:
            try:
                chunk = s.recv(1 << 20)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    answer = b"".join(chunks)
    if not answer:
        return 0, 0  # closed without an answer
    status = int(answer.split(b" ", 2)[1])
    held = re.search(rb"The answer would be larger than (\d+) bytes", answer) if status == 422 else None
    if held:
        return status, int(held.group(1))
    return status, len(answer) - answer.index(b"\r\n\r\n") - 4


def cpu_ns(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(field)


def measure(process, port, path, bodies):
    """Median CPU seconds of one request, the peak bytes above idle, the status and the answer's size."""
    pid = process.pid
    cpus, peaks = [], []
    status = size = 0
    for body in bodies:
        time.sleep(0.6)  # the server gives back freed memory after an idle round
        idle = status_kb(pid, "VmRSS")
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        before = cpu_ns(pid)
        status, size = post(port, path, body)
        cpus.append((cpu_ns(pid) - before) / 1e9)
        peaks.append(max(0, status_kb(pid, "VmHWM") - idle) * 1024)
    return statistics.median(cpus), statistics.median(peaks), status, size


# Set per repetition: every text and number that a cache could key on differs between repetitions.
SALT = 0


def words(n, seed=1):
    """n different short words, deterministic (and different for every SALT)."""
    syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qu", "an", "el", "or"]
    out, x = [], seed + SALT * 1_000_003
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        k = 2 + (x >> 60) % 3
        out.append("".join(syllables[(x >> (8 * j)) % len(syllables)] for j in range(k)) + str((i + SALT) % 97))
    return out


def fill(make_item, target, base):
    """A JSON body `base` whose list (the key "_list" in it) has as many items as fit in `target` bytes."""
    one = len(json.dumps(make_item(0), separators=(",", ":"), ensure_ascii=False).encode()) + 1
    n = max(1, (target - len(json.dumps(base).encode())) // one)
    items = [make_item(i) for i in range(n)]
    return n, items


def dumps(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


MARKS = "".join("\u0301" if i % 2 == 0 else "\u0323" for i in range(30))
FONT3 = {"family": "DejaVu Serif, DejaVu Sans Mono, DejaVu Sans", "size": 16}


def mark_text(i):
    """A grapheme cluster of 32 scalars (a base, 30 marks, U+20D0) unlike every other one: i's bits pick the marks."""
    i += SALT * 1_000_003
    marks = "".join("\u0301" if (i >> (j % 20)) & 1 else "\u0323" for j in range(30))
    return "a" + marks + "\u20d0"


def long_cluster(i):
    """`a`, 996 marks alternating U+0301/U+0323 but for the first 24, which spell i's bits, then U+20D0."""
    i += SALT * 1_000_003
    head = "".join("\u0301" if (i >> j) & 1 else "\u0323" for j in range(24))
    return "a" + head + "".join("\u0301" if j % 2 else "\u0323" for j in range(972)) + "\u20d0"


# Scripts ICU breaks by dictionary (no spaces between words): common words of each, joined as prose joins them.
DICTIONARY_WORDS = {
    "Thai": ("กรุงเทพ มหานคร เป็น เมือง หลวง ของ ประเทศ ไทย การ ตัด คำ ภาษา ต้อง ใช้ พจนานุกรม เขียน ติด กัน โดย ไม่ มี "
             "ช่องว่าง ระหว่าง สวัสดี ครับ ยินดี ต้อนรับ สู่ วันนี้ อากาศ ดี มาก เรา ไป เที่ยว ทะเล ข้าว ผัด กุ้ง หนึ่ง จาน "
             "และ น้ำ มะนาว ห้องน้ำ อยู่ ที่ ไหน ฝน ตก หนัก เมื่อ คืน ถนน จึง เปียก ราคา สินค้า นี้ คือ บาท โรงเรียน "
             "นักเรียน ครู หนังสือ อ่าน ทำงาน บ้าน รถไฟ สถานี ตลาด อาหาร อร่อย").split(),
    "Lao": ("ສະບາຍດີ ພາສາ ລາວ ປະເທດ ນະຄອນ ຫຼວງ ວຽງຈັນ ເປັນ ຂອງ ຂ້ອຍ ເຈົ້າ ໄປ ມາ ກິນ ເຂົ້າ ນ້ຳ ບ້ານ ໂຮງຮຽນ ນັກຮຽນ ຄູ "
            "ປຶ້ມ ອ່ານ ຂຽນ ມື້ນີ້ ອາກາດ ດີ ຫຼາຍ ແລະ ຢູ່ ໃສ ຕະຫຼາດ ອາຫານ ແຊບ").split(),
    "Khmer": ("សួស្តី ភាសា ខ្មែរ ប្រទេស កម្ពុជា រាជធានី ភ្នំពេញ ជា របស់ ខ្ញុំ អ្នក ទៅ មក ញ៉ាំ បាយ ទឹក ផ្ទះ សាលារៀន សិស្ស "
              "គ្រូ សៀវភៅ អាន សរសេរ ថ្ងៃនេះ អាកាសធាតុ ល្អ ណាស់ និង នៅ ឯណា ផ្សារ ម្ហូប ឆ្ងាញ់").split(),
    "Burmese": ("မင်္ဂလာပါ မြန်မာ ဘာသာ နိုင်ငံ ရန်ကုန် မြို့ တော် ဖြစ် သည် ကျွန်တော် သင် သွား လာ စား ထမင်း ရေ အိမ် "
                "ကျောင်း ကျောင်းသား ဆရာ စာအုပ် ဖတ် ရေး ဒီနေ့ ရာသီဥတု ကောင်း အရမ်း နှင့် မှာ ဘယ် ဈေး အစားအစာ စားကောင်း").split(),
}
# Faces for them: the default fonts have Thai (Garuda) and Lao (DejaVu Sans); Khmer and Burmese run on a server
# given Noto's faces for them too (Debian's fonts-noto-core), and are left out where those are not installed.
DICTIONARY_FONTS = {"Thai": "DejaVu Sans, Garuda", "Lao": "DejaVu Sans", "Khmer": "DejaVu Sans, Noto Sans Khmer",
                    "Burmese": "DejaVu Sans, Noto Sans Myanmar"}
NOTO_DIR = "/usr/share/fonts/truetype/noto"
EXTRA_FONTS = {"Khmer": ("NotoSansKhmer-Regular.ttf",), "Burmese": ("NotoSansMyanmar-Regular.ttf",)}
DEJAVU_DIR = "/usr/share/fonts/truetype/dejavu"


def font_directories(files):
    """--font-dir values for a server with DejaVu and `files` of Noto (a directory of links to them, made once)."""
    import tempfile
    folder = os.path.join(tempfile.gettempdir(), "trellis-cost-fonts-" + "-".join(f.split("-")[0] for f in files))
    os.makedirs(folder, exist_ok=True)
    for f in files:
        link = os.path.join(folder, f)
        if not os.path.exists(link):
            os.symlink(os.path.join(NOTO_DIR, f), link)
    return (DEJAVU_DIR, folder)


def dictionary_prose(script, scalars, seed):
    """Words of `script` without spaces between them, a space after every sixth (as between phrases), cut to
    `scalars` scalars; deterministic, and different for every SALT."""
    vocabulary = DICTIONARY_WORDS[script]
    out, x, length = [], seed + SALT * 1_000_003, 0
    while length < scalars:
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append(vocabulary[(x >> 33) % len(vocabulary)] + (" " if len(out) % 6 == 5 else ""))
        length += len(out[-1])
    return "".join(out)[:scalars].strip()


def dictionary_letters(scalars, seed):
    """Thai consonants at random: no dictionary word, so ICU's dictionary breaker takes its slow path throughout."""
    out, x = [], seed + SALT * 1_000_003
    for _ in range(scalars):
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out.append(chr(0x0E01 + (x >> 33) % 46))
    return "".join(out)


def cases(size):
    """(endpoint, case name, path, body bytes, is normal, the server's --font-dir list or () for the defaults)
    for the current SALT."""
    out = []

    def add(endpoint, name, path, body, normal=False, font_dirs=()):
        out.append((endpoint, name, path, dumps(body), normal, tuple(font_dirs)))

    # Text measurement.
    per = max(1, size // 10_000 // 9)
    add("text", "normal: distinct labels of words", "/v1/text/measure",
        {"font": {"family": "DejaVu Sans, IPAGothic", "size": 16},
         "texts": [" ".join(words(per, i * per)) for i in range(min(10_000, max(1, size // (9 * per + 4))))]}, True)
    n = max(1, size // (len(dumps(mark_text(0))) + 1))
    n = min(n, 10_000)
    add("text", "a + 996 marks + U+20D0, 3 families", "/v1/text/measure",
        {"font": FONT3, "texts": [long_cluster(i) for i in range(max(1, size // 2000))][:10_000]})
    add("text", "32-scalar mark clusters, 3 families", "/v1/text/measure",
        {"font": FONT3, "texts": [mark_text(i) * 20 for i in range(min(n, max(1, size // 1300)))]})
    add("text", "clusters no family covers", "/v1/text/measure",
        {"font": {"family": "DejaVu Serif, DejaVu Sans Mono, DejaVu Sans", "size": 16},
         "texts": ["\uac00\u0301" * 8 + "x" * 200 for _ in range(max(1, size // 230))][:10_000]})

    # Paragraph layout: every width lays every text out again, and a narrow one makes a line of each grapheme.
    def paragraphs(count, text, **extra):
        body = {"font": {"family": "DejaVu Sans, IPAGothic", "size": 16}, "width": 240,
                "texts": [text(i) for i in range(count)]}
        body.update(extra)
        if "widths" in extra:
            del body["width"]
        return body

    per = max(8, min(100, size // 10_000 // 7))  # words per text: 10,000 texts at most, of at most 1,000 scalars
    count = min(10_000, max(1, size // (7 * per)))
    prose = lambda i: " ".join(words(per, i * per))  # noqa: E731
    add("text-layout", "normal: paragraphs at one width", "/v1/text/layout", paragraphs(count, prose), True)
    widths = [40 + 40 * k for k in range(16)]
    add("text-layout", "16 widths, content widths", "/v1/text/layout",
        paragraphs(count, prose, widths=widths, contentWidths=True))
    add("text-layout", "16 widths, clamped to 1 line with an ellipsis", "/v1/text/layout",
        paragraphs(count, prose, widths=widths, maxLines=1, textOverflow="ellipsis"))
    add("text-layout", "16 widths of 1 px, overflowWrap anywhere", "/v1/text/layout",
        paragraphs(count, prose, widths=[1 + k / 16 for k in range(16)], overflowWrap="anywhere"))
    # Clamped to one line, long texts: every hidden line is still broken (lineCount counts them), and no answer bound stops it.
    long_prose = lambda i: " ".join(words(140, i * 140))[:1000]  # noqa: E731
    long_count = min(10_000, max(1, size // 1_000))
    add("text-layout", "16 widths of 1 px, anywhere, clamped to 1 line", "/v1/text/layout",
        paragraphs(long_count, long_prose, widths=[1 + k / 16 for k in range(16)], overflowWrap="anywhere", maxLines=1))
    add("text-layout", "16 widths of 1-16 px, clamped to 1 line", "/v1/text/layout",
        paragraphs(long_count, long_prose, widths=[1 + k for k in range(16)], maxLines=1))
    add("text-layout", "16 widths of 20-35 px, break-word, clamped to 1 line", "/v1/text/layout",
        paragraphs(long_count, long_prose, widths=[20 + k for k in range(16)], overflowWrap="break-word", maxLines=1))
    add("text-layout", "one word per text, break-word at 16 widths", "/v1/text/layout",
        paragraphs(count, lambda i: "".join(words(per, i * per))[:1000], widths=[7 + k for k in range(16)],
                   overflowWrap="break-word"))
    five = {"family": "DejaVu Sans, IPAGothic, Garuda, NanumBarunGothic, Noto Color Emoji", "size": 52.25}
    mixed = lambda i: " ".join(f"{w} 東京 สวัสดี 한국 😀" for w in words(max(1, per // 5), i * per))  # noqa: E731
    add("text-layout", "5 families, scripts mixed, 16 narrow widths, anywhere", "/v1/text/layout",
        paragraphs(min(10_000, max(1, size // (10 * per))), mixed, font=five, widths=[0.001 + k for k in range(16)],
                   overflowWrap="anywhere", wordBreak="break-all", contentWidths=True))
    # Scripts ICU breaks by dictionary: texts of 1,000 scalars (about 3 bytes each), narrow widths that make many lines.
    many = min(10_000, max(1, size // 3_000))
    narrow = [50 + k for k in range(16)]
    for script in DICTIONARY_WORDS:
        files = EXTRA_FONTS.get(script, ())
        if not all(os.path.exists(os.path.join(NOTO_DIR, f)) for f in files):
            continue
        dirs = font_directories(files) if files else ()
        font = {"family": DICTIONARY_FONTS[script], "size": 16}
        prose_of = lambda i, script=script: dictionary_prose(script, 1000, i * 1000)  # noqa: E731
        if script == "Thai":
            add("text-layout", "Thai, one width of 50 px", "/v1/text/layout", paragraphs(many, prose_of, font=font, width=50))
            add("text-layout", "Thai, 16 widths, maxLines 1, content widths", "/v1/text/layout",
                paragraphs(many, prose_of, font=font, widths=narrow, maxLines=1, contentWidths=True))
            add("text-layout", "Thai, 16 widths of 1 px, anywhere", "/v1/text/layout",
                paragraphs(many, prose_of, font=font, widths=[1 + k / 16 for k in range(16)], overflowWrap="anywhere"))
            add("text-layout", "Thai, 16 widths, break-all, clamped to 2 lines", "/v1/text/layout",
                paragraphs(many, prose_of, font=font, widths=narrow, wordBreak="break-all", maxLines=2, textOverflow="ellipsis"))
            add("text-layout", "Thai letters at random, 16 widths, maxLines 1", "/v1/text/layout",
                paragraphs(many, lambda i: dictionary_letters(1000, i), font=font, widths=narrow, maxLines=1))
            add("text-layout", "Thai letters at random, 16 widths, anywhere, maxLines 1", "/v1/text/layout",
                paragraphs(many, lambda i: dictionary_letters(1000, i), font=font, widths=narrow, maxLines=1,
                           overflowWrap="anywhere"))
            add("text-layout", "Thai, 16 widths of 20-35 px, break-word, maxLines 1", "/v1/text/layout",
                paragraphs(many, prose_of, font=font, widths=[20 + k for k in range(16)], maxLines=1, overflowWrap="break-word"))
            add("text-layout", "Thai labels of 100 scalars, 16 widths, maxLines 1", "/v1/text/layout",
                paragraphs(min(10_000, max(1, size // 305)), lambda i: dictionary_prose("Thai", 100, i * 100), font=font,
                           widths=narrow, maxLines=1))
        add("text-layout", f"{script}, 16 widths of 50 px, maxLines 1", "/v1/text/layout",
            paragraphs(many, prose_of, font=font, widths=[50] * 16, maxLines=1), font_dirs=dirs)
        add("text-layout", f"{script}, 16 widths of 50-65 px, maxLines 1", "/v1/text/layout",
            paragraphs(many, prose_of, font=font, widths=narrow, maxLines=1, textOverflow="ellipsis"), font_dirs=dirs)

    # Batch: 100 paragraph entries (the endpoint whose answer costs the most to compute per byte), each as it is
    # answered alone; an entry past its own answer bound has done its bound's work before it is taken back.
    def batch(entries):
        return {"requests": [{"path": "/v1/text/layout", "body": e} for e in entries]}

    for group, entry_size in (("batch", size // 100), ("batch-small", 2200)):
        per = max(8, min(100, entry_size // 9 // 5))  # words per text (about 9 bytes each), at least 5 texts
        k = max(1, entry_size // (9 * per))
        add(group, "normal: 100 entries, paragraphs at one width", "/v1/batch",
            batch([paragraphs(k, lambda i, e=e: " ".join(words(per, (e * k + i) * per))) for e in range(100)]), True)
        add(group, "100 entries each past its own bound: 16 widths of 1 px", "/v1/batch",
            batch([paragraphs(k, lambda i, e=e: " ".join(words(per, (e * k + i) * per)), widths=[1 + j / 16 for j in range(16)],
                              overflowWrap="anywhere") for e in range(100)]))
    # 100 Thai entries at 16 narrow widths clamped to one line (each as it is answered alone).
    thai = {"family": DICTIONARY_FONTS["Thai"], "size": 16}
    k = max(1, size // 100 // 3_000)
    add("batch", "100 Thai entries, 16 widths of 50 px, maxLines 1", "/v1/batch",
        batch([paragraphs(k, lambda i, e=e: dictionary_prose("Thai", 1000, (e * k + i) * 1000), font=thai, widths=[50] * 16,
                          maxLines=1) for e in range(100)]))
    add("batch", "100 Thai entries, 16 widths of 50-65 px, maxLines 1, content widths", "/v1/batch",
        batch([paragraphs(k, lambda i, e=e: dictionary_prose("Thai", 1000, (e * k + i) * 1000), font=thai, widths=narrow,
                          maxLines=1, contentWidths=True) for e in range(100)]))

    # Flow layout.
    def flow(items, **extra):
        body = {"containerWidth": 320, "horizontalSpacing": 4, "verticalSpacing": 4, "items": items}
        body.update(extra)
        return body

    n = size // 34
    add("flow", "normal: greedy, sizes", "/v1/flow/layout",
        flow([{"width": 20 + (i * 37) % 90, "height": 36} for i in range(n)]), True)
    add("flow", "balanced", "/v1/flow/layout",
        flow([{"width": 20 + (i * 37) % 90, "height": 36} for i in range(n)], lineBreaking="balanced"))
    add("flow", "balanced, maxRows, labelled chip", "/v1/flow/layout",
        flow([{"width": 20 + (i * 37) % 90, "height": 36} for i in range(n)], lineBreaking="balanced",
             maxRows=max(1, n // 8), font={"family": "DejaVu Sans", "size": 16},
             overflowIndicator={"text": "+{n} more items hidden here {n}{n}{n}"}))
    n = size // 22
    add("flow-text", "normal: labels", "/v1/flow/layout",
        flow([{"text": f"{w}"} for w in words(n)], font={"family": "DejaVu Sans", "size": 16}), True)
    n = size // 12
    add("flow-text", "empty labels", "/v1/flow/layout", flow([{"text": ""} for _ in range(n)], font={"family": "DejaVu Sans", "size": 16}))
    n = size // 23
    add("flow", "items of zero size", "/v1/flow/layout", flow([{"width": 0, "height": 0} for _ in range(n)]))
    add("flow-text", "labels of 32-scalar clusters", "/v1/flow/layout",
        flow([{"text": mark_text(i) * 4} for i in range(max(1, size // 280))], font=FONT3))
    # Chips cut at a maximum width: each label is laid out as a paragraph, against chips of English sentences.
    n = size // 160
    sentence = lambda i: " ".join(words(12, i * 12))  # noqa: E731
    chips = {"family": "DejaVu Sans, Garuda", "size": 16}
    add("flow-chips", "normal: sentence labels, maxWidth 120", "/v1/flow/layout",
        flow([{"text": sentence(i), "maxWidth": 120} for i in range(n)], font=chips), True)
    add("flow-chips", "sentence labels, maxWidth 120, maxLines 3", "/v1/flow/layout",
        flow([{"text": sentence(i), "maxWidth": 120, "maxLines": 3} for i in range(n)], font=chips))
    n = size // 200
    add("flow-chips", "Thai labels, maxWidth 120", "/v1/flow/layout",
        flow([{"text": dictionary_prose("Thai", 60, i * 60), "maxWidth": 120} for i in range(n)], font=chips))
    add("flow-chips", "Thai labels, maxWidth 60, maxLines 3", "/v1/flow/layout",
        flow([{"text": dictionary_prose("Thai", 60, i * 60), "maxWidth": 60, "maxLines": 3} for i in range(n)], font=chips))
    n = size // 3_100
    add("flow-chips", "Thai labels of 1,000 scalars, maxWidth 60, maxLines 1,000", "/v1/flow/layout",
        flow([{"text": dictionary_prose("Thai", 1000, i * 1000), "maxWidth": 60, "maxLines": 1000} for i in range(n)], font=chips))

    # Sections.
    n = min(10_000, max(2, size // 60))
    sections = [{"id": f"section-{i}", "items": [f"item {i}"]} for i in range(n)]
    add("sections", "normal: toggles", "/v1/sections/toggle",
        {"sections": sections, "actions": [{"type": "toggle", "section": f"section-{(i * 7) % n}"} for i in range(min(10_000, n))]},
        True)
    m = 10_000
    few = [{"id": f"s{i}"} for i in range(m)]
    add("sections", "single mode, collapseAll × 10,000", "/v1/sections/toggle",
        {"sections": few, "mode": "single", "expanded": ["s5"], "actions": [{"type": "collapseAll"}] * m})
    add("sections", "single mode, expand × 10,000", "/v1/sections/toggle",
        {"sections": few, "mode": "single", "actions": [{"type": "expand", "section": f"s{(i * 7) % m}"} for i in range(m)]})
    add("sections", "multiple mode, expandAll/collapseAll × 10,000", "/v1/sections/toggle",
        {"sections": few, "actions": [{"type": "expandAll" if i % 2 else "collapseAll"} for i in range(m)]})

    # Drawer (small requests: the figure per byte is the figure per request over its size).
    seed = {"isPresented": False, "action": "toggle", "container": {"width": 390, "height": 844},
            "safeAreaInsets": {"top": 47, "leading": 0, "bottom": 34, "trailing": 0}}
    # A hair's change in the spring each time, so that no kept plan answers it.
    hair = (SALT + 1) * 1e-9
    add("drawer", "normal: the seed's toggle", "/v1/drawer/state",
        dict(seed, spring={"response": 0.55 + hair, "dampingFraction": 0.825}), True)
    add("drawer", "slow spring at 240 frames/s, past the limit", "/v1/drawer/state",
        dict(seed, frameRate=240, spring={"response": 0.5 + hair, "dampingFraction": 0.01}))
    add("drawer", "overdamped spring at 24 frames/s (dampingFraction 2.5)", "/v1/drawer/state",
        dict(seed, frameRate=24, spring={"response": 1.0 + hair, "dampingFraction": 2.5}))
    add("drawer", "overdamped spring at 240 frames/s (response 1.5 s, dampingFraction 2.5)", "/v1/drawer/state",
        dict(seed, frameRate=240, spring={"response": 1.5 + hair, "dampingFraction": 2.5}))
    add("drawer", "the most keyframes within the limit (240 frames/s)", "/v1/drawer/state",
        dict(seed, frameRate=240, spring={"response": 1.5 + hair, "dampingFraction": 3.1}))
    add("drawer", "keyframes and easing samples within the limit (240 frames/s)", "/v1/drawer/state",
        dict(seed, frameRate=240, spring={"response": 1.5 + hair, "dampingFraction": 0.19}))
    add("drawer", "the most easing samples within the limit", "/v1/drawer/state",
        dict(seed, frameRate=1, spring={"response": 0.05 + hair, "dampingFraction": 0.029}))
    # Refused after the most samples its keyframes leave, then planned again from rest to blame `from`.
    add("drawer", "a fast start past the limit, the spring from rest within it", "/v1/drawer/state",
        dict(seed, frameRate=1, spring={"response": 0.05 + hair, "dampingFraction": 0.03}, **{"from": {"x": -200, "velocity": 20000}}))
    # The same size for both: a padded body buys no more keyframes than a small one.
    pad = "x" * 16_000
    add("drawer-16k", "normal: the seed's toggle, padded", "/v1/drawer/state",
        dict(seed, note=pad, spring={"response": 0.55 + hair, "dampingFraction": 0.825}), True)
    add("drawer-16k", "the most keyframes within the limit, padded", "/v1/drawer/state",
        dict(seed, note=pad, frameRate=240, spring={"response": 1.5 + hair, "dampingFraction": 3.1}))
    add("drawer-16k", "overdamped spring at 240 frames/s past the limit, padded", "/v1/drawer/state",
        dict(seed, note=pad, frameRate=240, spring={"response": 3.0 + hair, "dampingFraction": 3.5}))

    # Outline.
    n = size // 40
    nodes = [{"id": i, "parent": (i - 1) // 8 if i else None, "label": f"{words(1, i)[0]:<10}{i:08d}"} for i in range(n)]
    folders = [i for i in range(n) if 8 * i + 1 < n]
    add("outline-rows", "normal: a tree, every folder open, every row", "/v1/outline/rows",
        {"parentKey": "parent", "nodes": nodes, "expanded": folders, "selection": n - 1}, True)
    add("outline-expansion", "normal: a tree, a selection", "/v1/outline/expansion",
        {"parentKey": "parent", "nodes": nodes, "selection": n - 1}, True)
    add("outline-rows search", "normal: search, 50 rows", "/v1/outline/rows",
        {"parentKey": "parent", "nodes": nodes, "search": {"query": "ka"}, "limit": 50}, True)
    add("outline-expansion search", "normal: search", "/v1/outline/expansion",
        {"parentKey": "parent", "nodes": nodes, "search": {"query": "kalo"}}, True)
    long = "f" * 4093 + "é"
    n = max(1, size // 4130)
    many = [{"id": i, "label": long} for i in range(n)]
    terms = " ".join("\ufb00" * k for k in range(1, 21)) + " é"
    add("outline-rows search", "labels f…fé, query f", "/v1/outline/rows",
        {"nodes": many, "search": {"query": "f"}, "limit": 50})
    add("outline-rows search", "labels f…fé, nested ﬀ terms", "/v1/outline/rows",
        {"nodes": many, "search": {"query": terms, "mode": "words"}, "limit": 50})
    add("outline-expansion search", "labels f…fé, nested ﬀ terms", "/v1/outline/expansion",
        {"nodes": many, "search": {"query": terms, "mode": "words"}})
    # Nested terms of every length from 1: the most term occurrences one position can end (about ln 21 + 0.6).
    nested = " ".join("f" * k for k in range(1, 22)) + " é"
    add("outline-rows search", "labels f…fé, nested f terms", "/v1/outline/rows",
        {"nodes": many, "search": {"query": nested, "mode": "words"}, "limit": 50})
    add("outline-expansion search", "labels f…fé, nested f terms", "/v1/outline/expansion",
        {"nodes": many, "search": {"query": nested, "mode": "words"}})
    n = min(2_000_000, size // 9)
    add("outline-rows", "every node a root, all rows", "/v1/outline/rows", {"nodes": [{"id": i} for i in range(n)]})
    add("outline-expansion", "a chain, the deepest selected", "/v1/outline/expansion",
        {"parentKey": "p", "nodes": [{"id": i, "p": i - 1 if i else None} for i in range(size // 20)], "selection": size // 20 - 1})
    # Small requests: what a request costs whatever its size (the search's automaton is built per request).
    small = [{"id": i, "label": f"{words(1, i)[0]} {i}", "parent": (i - 1) // 3 if i else None} for i in range(20)]
    add("outline-small", "normal: 20 nodes, query kalo", "/v1/outline/rows",
        {"parentKey": "parent", "nodes": small, "search": {"query": "kalo" + chr(97 + SALT % 26)}}, True)
    add("outline-small", "20 nodes, 256 distinct scalars", "/v1/outline/rows",
        {"parentKey": "parent", "nodes": small, "search": {"query": "".join(chr(0x4E00 + SALT * 300 + i) for i in range(256))}})
    add("outline-small", "20 nodes, 256 accented scalars, diacritics kept", "/v1/outline/rows",
        {"parentKey": "parent", "nodes": small, "search": {"diacriticSensitive": True, "caseSensitive": True,
                                                           "query": "".join(chr(0xC0 + (i + SALT) % 64) for i in range(256))}})
    every = [chr(c) for c in range(0xA0, 0x30000) if not 0xD800 <= c < 0xE000]
    per = 1000
    labels = ["".join(every[(i * per + SALT * 7919 + j) % len(every)] for j in range(per)) for i in range(max(1, size // 3000))]
    add("outline-rows search", "labels of every scalar, query ab", "/v1/outline/rows",
        {"nodes": [{"id": i, "label": l} for i, l in enumerate(labels)], "search": {"query": "ab"}, "limit": 50})
    add("outline-rows search", "one label of the whole body", "/v1/outline/rows",
        {"nodes": [{"id": 1, "label": "f" * (size - 80) + "é"}], "search": {"query": "f"}})
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1 << 20, help="body bytes of the large cases")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the rows as JSON here")
    parser.add_argument("--check", action="store_true", help="exit 1 when a crafted case passes the targets")
    parser.add_argument("--only", help="endpoints to run, comma-separated")
    parser.add_argument("--binary", default=run.TRELLIS, help="the trellis binary (default: the release build)")
    parser.add_argument("--write", help="write the table as the section \"Cost model\" of this Markdown file")
    parser.add_argument("--concurrent", action="store_true",
                        help="also six concurrent worst-case requests per endpoint with the Kubernetes settings")
    args = parser.parse_args()
    def start(font_dirs=()):
        return Trellis(args.binary, "--threads", 1, "--max-body-bytes", 64 << 20, "--memory-budget", 8 << 30,
                       # No deadline: on a busy machine a normal 8 MB text request may pass the default's 5 s of wall time.
                       "--request-timeout", 0, *[a for d in font_dirs for a in ("--font-dir", d)])
    server = start()
    # Cases in scripts the default fonts lack run on a server with those fonts too (the same binary and flags).
    servers = {(): server}
    rows = []
    try:
        normal = {}
        global SALT
        runs = []
        for repeat in range(args.repeats):
            SALT = repeat + 1
            runs.append([c for c in cases(args.size) if not args.only or any(c[0].startswith(o) for o in args.only.split(","))])
        for k, (endpoint, name, path, body, is_normal, font_dirs) in enumerate(runs[0]):
            if font_dirs not in servers:
                servers[font_dirs] = start(font_dirs)
            chosen = servers[font_dirs]
            cpu, peak, status, answer = measure(chosen.process, chosen.port, path, [r[k][3] for r in runs])
            per_mb = cpu / (len(body) / 1e6)
            if is_normal:
                normal[endpoint] = per_mb
            row = {"endpoint": endpoint, "case": name, "bytes": len(body), "status": status, "answer": answer,
                   "cpu_ms": cpu * 1000, "cpu_s_per_mb": per_mb, "ratio": per_mb / normal.get(endpoint, per_mb),
                   "peak": peak, "peak_per_byte": peak / len(body) if len(body) >= SMALL else None,
                   "working_per_byte": (peak - len(body) - answer) / len(body) if len(body) >= SMALL else None,
                   "normal": is_normal}
            rows.append(row)
            memory = (f"{row['peak_per_byte']:6.2f} B/B (working {row['working_per_byte']:6.2f}, answer {answer / len(body):5.2f})"
                      if row["peak_per_byte"] is not None else f"{peak / 1e6:6.2f} MB")
            print(f"{endpoint:18} {name:44} {len(body):>9} B  {status}  {cpu * 1000:9.2f} ms  {per_mb:8.3f} s/MB"
                  f"  ×{row['ratio']:6.2f}  {memory}", flush=True)
    finally:
        for running in servers.values():
            running.stop()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    crowd = concurrent_worst(args.binary, args.size) if args.concurrent else []
    if args.write:
        write_section(args, rows, crowd)
    if args.check:
        bad = [r for r in rows if not r["normal"] and (r["ratio"] > CPU_TARGET or (r["peak_per_byte"] or 0) > MEMORY_TARGET)]
        for r in bad:
            print(f"past the targets: {r['endpoint']}: {r['case']}", file=sys.stderr)
        sys.exit(1 if bad else 0)


# The Kubernetes kit's settings (deploy/kubernetes/configmap.yaml) and the pod's memory limit.
KUBE_FLAGS = ["--threads", "2", "--memory-budget", str(128 << 20), "--connection-memory", str(64 << 10)]
KUBE_LIMIT = 512 << 20


def concurrent_worst(binary, size):
    """Six concurrent worst-case requests of each endpoint on a server with the Kubernetes settings: their
    statuses and the peak RSS; then /healthz's answer time while two of them run."""
    import threading
    worst = {}
    global SALT
    SALT = 99
    for endpoint, name, path, body, is_normal, font_dirs in cases(size):
        if not is_normal and len(body) >= SMALL:
            worst.setdefault(endpoint.split()[0], []).append((name, path, body, font_dirs))
    out = []
    for endpoint, candidates in worst.items():
        for name, path, body, font_dirs in candidates:
            ops = free_port()
            server = Trellis(binary, "--ops-port", ops, "--max-body-bytes", 16 << 20, *KUBE_FLAGS,
                             *[a for d in font_dirs for a in ("--font-dir", d)])
            port = server.port
            try:
                statuses = []
                threads = [threading.Thread(target=lambda: statuses.append(post(port, path, body)[0])) for _ in range(6)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                peak = status_kb(server.pid, "VmHWM") * 1024
                # /healthz while two of them run, where the kubelet asks: on the operations port.
                busy = [threading.Thread(target=lambda: post(port, path, body)) for _ in range(2)]
                for t in busy:
                    t.start()
                time.sleep(0.05)
                started = time.time()
                with socket.create_connection(("127.0.0.1", ops), timeout=30) as s:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    s.recv(4096)
                health = time.time() - started
                for t in busy:
                    t.join()
            finally:
                server.stop()
            out.append({"endpoint": endpoint, "case": name, "bytes": len(body), "statuses": sorted(statuses),
                        "peak": peak, "healthz": health})
            print(f"{endpoint:18} {name:44} six at once: {sorted(statuses)} peak {peak / 2**20:.0f} MiB; "
                  f"/healthz beside two: {health * 1000:.0f} ms", flush=True)
    return out


def write_section(args, rows, crowd):
    import datetime
    import platform
    load = os.getloadavg()
    lines = [
        "## Cost model",
        "",
        f"`python3 bench/cost.py --size {args.size} --repeats {args.repeats}` (part of `make bench`), "
        f"{datetime.date.today().isoformat()}, {run.cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}, load average {load[0]:.1f} at the end. One release server with one worker "
        "thread with the default answer bound (16 × the body + 1 MiB: a case whose answer would pass it is "
        "answered 422 once it has written that much, as the service answers it); each body sent alone, its texts "
        "and numbers changed between repetitions so that no cache helps; "
        "the medians of the repetitions. CPU is the server's (its threads' run time); memory is the peak resident "
        "set above idle, per body byte, and the working memory is that peak less the body and the answer (for a "
        "422 refused at the answer bound, the bound: the answer the writer held when it stopped) "
        "(what the endpoint reserves per byte). The ratio is CPU per MB over the endpoint's normal request "
        f"in the same run; the targets are at most {CPU_TARGET:g}× and {MEMORY_TARGET:g} bytes of working memory "
        "per body byte. Bodies under 64 KiB give their peak in MB instead (their cost is the request's fixed part).",
        "",
        "| endpoint | request | body | status | CPU ms | CPU s/MB | × normal | peak B/B | working B/B | answer B/B |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r["peak_per_byte"] is None:
            memory = f"{r['peak'] / 1e6:.2f} MB | — | —"
        else:
            memory = f"{r['peak_per_byte']:.2f} | {r['working_per_byte']:.2f} | {r['answer'] / r['bytes']:.2f}"
        lines.append(f"| {r['endpoint']} | {r['case']} | {r['bytes']:,} | {r['status']} | {r['cpu_ms']:.2f} | "
                     f"{r['cpu_s_per_mb']:.3f} | {r['ratio']:.2f} | {memory} |")
    if crowd:
        lines += [
            "",
            f"Six at once, with the Kubernetes kit's settings (`{' '.join(KUBE_FLAGS)}`; the pod's limit is "
            f"{KUBE_LIMIT >> 20} MiB): each crafted request above of 64 KiB or more sent six times concurrently to a "
            "fresh server, the statuses (503: the working memory did not fit the budget; 0: closed without an answer) and the peak RSS; then "
            "`GET /healthz` on the operations port (`--ops-port`, where the kit's probes ask) while two of them run.",
            "",
            "| endpoint | request | statuses | peak RSS | /healthz beside two |",
            "|---|---|---|---:|---:|",
        ]
        for c in crowd:
            lines.append(f"| {c['endpoint']} | {c['case']} | {' '.join(map(str, c['statuses']))} | "
                         f"{c['peak'] / 2**20:.0f} MiB | {c['healthz'] * 1000:.0f} ms |")
    run.replace_section(args.write, "## Cost model", "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
