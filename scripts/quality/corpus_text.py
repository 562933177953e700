"""The text the quality corpus is rendered from: sentences written for this project, and public-domain classical
Japanese openings (方丈記 1212, 徒然草 c. 1330, 平家物語 13th c., 竹取物語 9th–10th c., 枕草子 c. 1000) typed
for it in common modern-edition orthography. Nothing here is copied from a copyrighted edition. Every character
is in the PP-OCRv5 key list (so no error is the model's alphabet's); e.g. 竹取物語 stops before its ゐ.

Ruby is marked in Aozora Bunko notation: ｜base《reading》.
"""

# A small town library; written for this corpus.
MODERN = [
    "町の小さな図書館は、駅から歩いて十分ほどの坂の上にある。",
    "入口の横には古い桜の木があり、春になると閲覧室の窓が薄い桃色に染まる。",
    "館長の話によれば、この建物は昭和三十二年に公民館として建てられたという。",
    "書庫には明治から大正にかけての地方新聞が、製本されたまま五百冊ほど眠っている。",
    "紙は酸性のものが多く、ページをめくるたびに端が少しずつ欠けてしまう。",
    "そこで昨年から、傷みの激しい号を順に撮影して画像として保存する作業が始まった。",
    "撮影には一冊あたり二時間ほどかかり、ボランティアの学生が交代で担当している。",
    "画像から文字を読み取る仕組みがあれば、記事を言葉で探せるようになるはずだ。",
    "ところが当時の活字は小さく、かすれや汚れも多いため、機械で読むのは簡単ではない。",
    "縦書きの本文の間に横書きの広告が挟まっていることもあり、読む順番も問題になる。",
    "雨の日には来館者が少なく、静かな館内に時計の音だけが響いている。",
    "窓際の席では、近所の老人が毎朝九時に来て、同じ新聞を丁寧に読んでいる。",
    "子ども向けの棚には絵本が並び、土曜日の午後には読み聞かせの会が開かれる。",
    "貸出の記録を見ると、最も多く借りられているのは料理と園芸の本である。",
    "秋の終わりには、地元の歴史を紹介する小さな展示が二階の廊下で行われる。",
    "展示の準備では、古い写真の裏に書かれた日付や地名を一枚ずつ確かめていく。",
    "誤って記録された地名が見つかると、当時を知る人に話を聞きに出かけることもある。",
    "こうした地道な作業の積み重ねが、町の記憶を次の世代へ手渡す力になっている。",
    "夕方五時になると閉館の音楽が流れ、職員は返却された本を棚に戻し始める。",
    "最後に照明を消すとき、館長はいつも書庫の扉に鍵が掛かっているかを確かめる。",
]

# Sentences with digits and Latin letters, for horizontal pages only.
MIXED = [
    "2023年度の来館者は延べ18,240人で、前の年より7%多かった。",
    "新聞の撮影は1日に約40ページ、画像は1枚あたり12MBほどになる。",
    "閲覧室は午前9時30分から午後5時まで開いている（月曜日は休館）。",
    "古い資料の番号はA-1024からA-1580までが明治期の新聞である。",
]

# Public-domain classical openings.
CLASSICAL = [
    "ゆく河の流れは絶えずして、しかももとの水にあらず。よどみに浮かぶうたかたは、かつ消えかつ結びて、"
    "久しくとどまりたる例なし。世の中にある人とすみかと、またかくのごとし。",
    "つれづれなるままに、日暮らし、硯にむかひて、心にうつりゆくよしなし事を、そこはかとなく書きつくれば、"
    "あやしうこそものぐるほしけれ。",
    "祇園精舎の鐘の声、諸行無常の響きあり。沙羅双樹の花の色、盛者必衰のことわりをあらはす。"
    "おごれる人も久しからず、ただ春の夜の夢のごとし。たけき者もつひには滅びぬ、ひとへに風の前の塵に同じ。",
    "今は昔、竹取の翁といふものありけり。野山にまじりて竹を取りつつ、よろづのことに使ひけり。"
    "名をば、さぬきの造となむいひける。その竹の中に、もと光る竹なむ一筋ありける。"
    "あやしがりて寄りて見るに、筒の中光りたり。",
    "春はあけぼの。やうやう白くなりゆく山ぎは、すこしあかりて、紫だちたる雲のほそくたなびきたる。"
    "夏は夜。月のころはさらなり。やみもなほ、蛍の多く飛びちがひたる。",
]

# Vertical text with ruby (Aozora notation); written for this corpus except the 平家物語 line.
RUBY = [
    "｜図書館《としょかん》の｜書庫《しょこ》には、｜明治《めいじ》の｜新聞《しんぶん》が眠っている。",
    "｜祇園精舎《ぎおんしょうじゃ》の鐘の声、｜諸行無常《しょぎょうむじょう》の響きあり。",
    "古い｜写真《しゃしん》の裏には、｜撮影《さつえい》した日と｜地名《ちめい》が書かれていた。",
    "｜閲覧室《えつらんしつ》の窓から、｜桜《さくら》の花が見える。",
]

# Sentences dense with small kana (っゃゅょ, ッャュョ, ぁぃぅぇぉ, ァィゥェォ), written for this corpus: in vertical
# writing set with the font's vertical forms the small kana sit at the top right of their cells (issue 34).
SMALL_KANA = [
    "ちょっと待ってください。キャラメルとチョコレートを買ってきます。",
    "ファイルをコピーしてから、シャッターを押してください。",
    "きょうは図書館でジャーナルのバックナンバーを探しました。",
    "しょっちゅう行く喫茶店で、ミルクティーとショートケーキを注文した。",
    "びっくりしたのは、ニュースで見たチューリップの畑だった。",
    "ちゃんと並んでいれば、切符はすぐに買えるよ。",
    "わぁ、すごいねぇ、と子どもたちは声をあげた。",
    "フォークとナイフ、ウェブのフィルム、ウォーターのボトル。",
    "じゃあ、いっしょにジョギングしようか、とお兄ちゃんが言った。",
    "パーティーでディスクジョッキーが、トゥーランドットとウィーンのワルツを流した。",
    "ふぅ、すごぉい、と妹はため息をついた。",
]

HEADING = "第一章　町の図書館"
CAPTION = "図1　閲覧室の窓から見た桜（昭和40年ごろ）"
TWO_COLUMN_TITLE = "図書館だより　第12号"

# Short items for the tall page (many short lines).
TALL_ITEMS = ["新聞", "写真", "地図", "絵本", "日記", "手紙", "名簿", "画集", "辞書", "雑誌", "楽譜", "暦"]
TALL_PLACES = ["書庫", "二階", "窓際", "廊下", "別室", "棚", "箱"]


def paragraph(pool, count, start=0):
    """`count` sentences of `pool` from `start`, wrapping around: a deterministic paragraph."""
    return "".join(pool[(start + i) % len(pool)] for i in range(count))


def tall_lines(n):
    """`n` short lines such as `第7項の写真は書庫に三冊` (≤ 15 characters, no gap inside), deterministic."""
    kanji_numbers = "一二三四五六七八九"
    lines = []
    for i in range(n):
        item = TALL_ITEMS[i % len(TALL_ITEMS)]
        place = TALL_PLACES[(i * 5) % len(TALL_PLACES)]
        count = kanji_numbers[(i * 7) % 9]
        lines.append(f"第{i + 1}項の{item}は{place}に{count}冊")
    return lines


def parse_ruby(text):
    """Aozora ruby notation -> (body text, [(start, end, reading)]) with character offsets into the body."""
    body, spans, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "｜":
            close = text.index("《", i)
            end = text.index("》", close)
            base, reading = text[i + 1:close], text[close + 1:end]
            spans.append((len(body), len(body) + len(base), reading))
            body.extend(base)
            i = end + 1
        else:
            body.append(ch)
            i += 1
    return "".join(body), spans
