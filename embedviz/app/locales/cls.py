"""A class following its teacher (embedviz/classroom.py, embedviz/app/classroom_view.py)."""

STRINGS = {
    "cls.start": {"en": "Start a class", "zh": "开始上课"},
    "cls.start_help": {
        "en": "Students join with a short code or a link and follow your steps; on a question you see how the "
              "class answered before you reveal it. No names are collected.",
        "zh": "学生用短代码或链接加入，跟随你的步骤；遇到问题时，你先看到全班的作答分布，再揭晓答案。不收集姓名。",
    },
    "cls.start_needs_tour": {"en": "Pick a lesson tour first to start a class.", "zh": "先选一个按课导览，才能开始上课。"},
    "cls.code_input": {"en": "Class code", "zh": "课堂代码"},
    "cls.join": {"en": "Join the class", "zh": "加入课堂"},
    "cls.leave": {"en": "Leave the class", "zh": "离开课堂"},
    "cls.teaching": {"en": "You teach class {code}", "zh": "你正在主持课堂 {code}"},
    "cls.joined": {"en": "Following the teacher · class {code}", "zh": "正在跟随老师 · 课堂 {code}"},
    "cls.away": {"en": "You stepped away from class {code}", "zh": "你已暂时离开课堂 {code} 的进度"},
    "cls.step_away": {"en": "Explore on my own", "zh": "自己探索"},
    "cls.come_back": {"en": "Back to the class", "zh": "回到课堂"},
    "cls.code_big": {"en": "Join code: **{code}**", "zh": "加入代码：**{code}**"},
    "cls.link": {"en": "or open {link}", "zh": "或打开 {link}"},
    "cls.teacher_link": {
        "en": "Keep this tab: its address holds your teacher key. Anyone with it can drive the class.",
        "zh": "请保留此标签页：它的网址里有你的教师密钥，拿到它的人都能控制课堂。",
    },
    "cls.qr_caption": {"en": "Scan to join", "zh": "扫码加入"},
    "cls.answered": {"en": "{n} answered", "zh": "已有 {n} 人作答"},
    "cls.spread": {"en": "Class answers: {spread}", "zh": "全班作答：{spread}"},
    "cls.none_yet": {"en": "no answers yet", "zh": "还没有人作答"},
    "cls.option_axis": {"en": "answer", "zh": "答案"},
    "cls.count_axis": {"en": "students", "zh": "学生数"},
    "cls.reveal": {"en": "Reveal to the class", "zh": "向全班揭晓"},
    "cls.wait_reveal": {
        "en": "Your answer is sent. The figure and the answer appear when the teacher reveals them; you may still "
              "change your choice until then.",
        "zh": "你的答案已提交。老师揭晓后会显示图和答案；在此之前你仍可修改选择。",
    },
    "cls.pick_first": {"en": "Pick an answer: the class's answers are shown together.",
                       "zh": "请选一个答案：全班的答案会一起展示。"},
    "cls.teacher_wait": {
        "en": "The figure stays hidden until you reveal it: students see the same.",
        "zh": "在你揭晓之前图保持隐藏，学生看到的也一样。",
    },
    "cls.answer_is": {"en": "The answer: “{answer}”. {why}", "zh": "答案：“{answer}”。{why}"},
    "cls.err.malformed": {"en": "“{raw}” is not a class code: a code has 6 letters or digits.",
                          "zh": "“{raw}”不是课堂代码：代码由 6 个字母或数字组成。"},
    "cls.err.unknown": {"en": "There is no open class with the code {raw}: it may have ended or expired.",
                        "zh": "没有代码为 {raw} 的课堂：它可能已经结束或过期。"},
    "cls.err.full": {"en": "Class {raw} is full.", "zh": "课堂 {raw} 人数已满。"},
    "cls.err.too_many_classes": {"en": "Too many classes are open on this server right now; try again later.",
                                 "zh": "此服务器上同时开启的课堂太多，请稍后再试。"},
    "cls.err.not_teacher": {
        "en": "This link's teacher key is not valid for class {raw}: you joined as a student.",
        "zh": "此链接中的教师密钥对课堂 {raw} 无效：你以学生身份加入。",
    },
    "cls.err.revealed": {"en": "The answer is already revealed: answers are closed.",
                         "zh": "答案已揭晓：作答已关闭。"},
    "cls.err.rate": {"en": "Too many answers in a short time; wait a few seconds.",
                     "zh": "短时间内提交次数过多，请等几秒。"},
    "cls.err.offline": {
        "en": "Not connected to the class store; the app works on without a class.",
        "zh": "未连接到课堂存储；应用可以继续在没有课堂的情况下使用。",
    },
}
