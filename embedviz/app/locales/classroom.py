"""A class following its teacher (embedviz/classroom/; drawn by embedviz/app/classroom_*.py)."""
PREFIX = "classroom."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "classroom.start": {"en": "Start a class", "zh": "开始上课"},
    "classroom.start_help": {
        "en": "Students join with a short code or a link and follow your steps; on a question you see how the "
              "class answered before you reveal it. No names are collected.",
        "zh": "学生用短代码或链接加入，跟随你的步骤；遇到问题时，你先看到全班的作答分布，再揭晓答案。不收集姓名。",
    },
    "classroom.start_needs_tour": {"en": "Pick a lesson tour first to start a class.", "zh": "先选一个按课导览，才能开始上课。"},
    "classroom.code_input": {"en": "Class code", "zh": "课堂代码"},
    "classroom.join": {"en": "Join the class", "zh": "加入课堂"},
    "classroom.leave": {"en": "Leave the class", "zh": "离开课堂"},
    "classroom.teaching": {"en": "You teach class {code}", "zh": "你正在主持课堂 {code}"},
    "classroom.joined": {"en": "Following the teacher · class {code}", "zh": "正在跟随老师 · 课堂 {code}"},
    "classroom.away": {"en": "You stepped away from class {code}", "zh": "你已暂时离开课堂 {code} 的进度"},
    "classroom.step_away": {"en": "Explore on my own", "zh": "自己探索"},
    "classroom.come_back": {"en": "Back to the class", "zh": "回到课堂"},
    "classroom.code_big": {"en": "Join code: **{code}**", "zh": "加入代码：**{code}**"},
    "classroom.link": {"en": "or open {link}", "zh": "或打开 {link}"},
    "classroom.teacher_link": {
        "en": "Keep this tab: its address holds your teacher key. Anyone with it can drive the class.",
        "zh": "请保留此标签页：它的网址里有你的教师密钥，拿到它的人都能控制课堂。",
    },
    "classroom.qr_caption": {"en": "Scan to join", "zh": "扫码加入"},
    "classroom.seats": {"en": "students joined: {n}", "zh": "已有 {n} 名学生加入"},
    "classroom.full_teacher": {
        "en": "Class {code} is full ({n} students): students who join now are turned away. Start a second class for "
              "the others.",
        "zh": "课堂 {code} 已满（{n} 名学生）：现在加入的学生会被拒绝。请为其余学生另开一个课堂。",
    },
    "classroom.answered": {"en": "{n} answered", "zh": "已有 {n} 人作答"},
    "classroom.answered_second": {"en": "Second vote: {n} answered", "zh": "第二次投票：已有 {n} 人作答"},
    "classroom.hidden_spread": {"en": "The class sees only how many answered.", "zh": "全班只看到作答人数。"},
    "classroom.peek": {"en": "The spread so far (only on this screen)", "zh": "目前的作答分布（仅在此屏幕显示）"},
    "classroom.show_spread": {"en": "Show the spread to the class", "zh": "向全班展示作答分布"},
    "classroom.show_spread_help": {
        "en": "Off: the projector and the students' screens show only how many answered. On: they show how the "
              "class answered (no names), before the answer is revealed.",
        "zh": "关闭时，投影和学生屏幕只显示作答人数；打开后，在揭晓答案之前显示全班的作答分布（不显示姓名）。",
    },
    "classroom.vote_again": {"en": "Vote again", "zh": "再投一次"},
    "classroom.vote_again_help": {
        "en": "Keeps these answers as the first vote and clears them: students talk it over with a neighbour, then "
              "answer again. Reveal shows both votes side by side.",
        "zh": "把这些答案保留为第一次投票并清空：学生先和旁边的同学讨论，再重新作答。揭晓时两次投票并排显示。",
    },
    "classroom.vote_again_student": {
        "en": "Vote again: talk it over with a neighbour, then answer again.",
        "zh": "再投一次：先和旁边的同学讨论，再重新作答。",
    },
    "classroom.first_vote": {"en": "First vote", "zh": "第一次投票"},
    "classroom.second_vote": {"en": "Second vote", "zh": "第二次投票"},
    "classroom.spread_votes": {"en": ":blue[**First vote**]: {first}. :orange[**Second vote**]: {second}",
                         "zh": ":blue[**第一次投票**]：{first}。:orange[**第二次投票**]：{second}"},
    "classroom.spread": {"en": "Class answers: {spread}", "zh": "全班作答：{spread}"},
    "classroom.spread_item": {"en": "{option}: {n}", "zh": "{option}：{n}"},
    "classroom.none_yet": {"en": "no answers yet", "zh": "还没有人作答"},
    "classroom.chart_alt": {"en": "How many students chose each answer", "zh": "每个答案各有多少学生选择"},
    "classroom.count_axis": {"en": "students", "zh": "学生数"},
    "classroom.reveal": {"en": "Reveal to the class", "zh": "向全班揭晓"},
    "classroom.wait_reveal": {
        "en": "Your answer is sent. The figure and the answer appear when the teacher reveals them; you may still "
              "change your choice until then.",
        "zh": "你的答案已提交。老师揭晓后会显示图和答案；在此之前你仍可修改选择。",
    },
    "classroom.pick_first": {"en": "Pick an answer: the class's answers are shown together.",
                       "zh": "请选一个答案：全班的答案会一起展示。"},
    "classroom.teacher_wait": {
        "en": "The figure stays hidden until you reveal it: students see the same.",
        "zh": "在你揭晓之前图保持隐藏，学生看到的也一样。",
    },
    "classroom.answer_is": {"en": "The answer: “{answer}”. {why}", "zh": "答案：“{answer}”。{why}"},
    "classroom.summary": {"en": "Class summary", "zh": "课堂小结"},
    "classroom.summary_note": {"en": "Counts only: no names, no ids.", "zh": "只有人数：没有姓名，也没有编号。"},
    "classroom.summary_none": {"en": "No question of this tour was answered in class yet.",
                         "zh": "本导览的问题在课堂上还没有人作答。"},
    "classroom.summary_csv": {"en": "Download the summary (CSV)", "zh": "下载小结（CSV）"},
    "classroom.col_step": {"en": "Step", "zh": "步骤"},
    "classroom.col_answered_first": {"en": "Answered (1st vote)", "zh": "作答（第一次）"},
    "classroom.col_right_first": {"en": "Right (1st vote)", "zh": "答对（第一次）"},
    "classroom.col_answered_second": {"en": "Answered (2nd vote)", "zh": "作答（第二次）"},
    "classroom.col_right_second": {"en": "Right (2nd vote)", "zh": "答对（第二次）"},
    "classroom.answer_kept": {
        "en": "Too many answers in a short time: the class still counts “{answer}”. Wait a few seconds before you "
              "change it.",
        "zh": "短时间内作答次数过多：全班统计的仍是“{answer}”。请等几秒再修改。",
    },
    "classroom.err.malformed": {"en": "“{raw}” is not a class code: a code has 6 letters or digits.",
                          "zh": "“{raw}”不是课堂代码：代码由 6 个字母或数字组成。"},
    "classroom.err.not_a_code": {"en": "That is not a class code: a code has 6 letters or digits.",
                           "zh": "这不是课堂代码：代码由 6 个字母或数字组成。"},
    "classroom.err.unknown": {"en": "There is no open class with the code {raw}: it may have ended or expired.",
                        "zh": "没有代码为 {raw} 的课堂：它可能已经结束或过期。"},
    "classroom.err.full": {"en": "Class {raw} is full.", "zh": "课堂 {raw} 人数已满。"},
    "classroom.err.too_many_classes": {"en": "Too many classes are open on this server right now; try again later.",
                                 "zh": "此服务器上同时开启的课堂太多，请稍后再试。"},
    "classroom.err.not_teacher": {
        "en": "This link's teacher key is not valid for class {raw}: you joined as a student.",
        "zh": "此链接中的教师密钥对课堂 {raw} 无效：你以学生身份加入。",
    },
    "classroom.err.revealed": {"en": "The answer is already revealed: answers are closed.",
                         "zh": "答案已揭晓：作答已关闭。"},
    "classroom.err.rate": {"en": "Too many answers in a short time: this one was not counted. Wait a few seconds.",
                     "zh": "短时间内提交次数过多：这次作答没有计入。请等几秒。"},
    "classroom.err.moved": {"en": "The teacher has moved to another step: this answer was not counted.",
                      "zh": "老师已经进入另一步：这次作答没有计入。"},
    "classroom.err.guesses": {"en": "Too many class codes were tried from here in a short time. Check the code, then try "
                              "again in a minute.",
                        "zh": "短时间内从这里尝试的课堂代码太多。请核对代码，一分钟后再试。"},
    "classroom.err.client_classes": {"en": "Too many classes are open from your network right now: leave one before you "
                                     "start another.",
                               "zh": "你的网络中同时开启的课堂太多：请先离开一个，再开始新的课堂。"},
    "classroom.err.client_starts": {"en": "Too many classes were started from your network in the last few minutes; try "
                                    "again in a few minutes.",
                              "zh": "最近几分钟内从你的网络开始的课堂太多，请过几分钟再试。"},
    "classroom.reconnecting": {
        "en": "Reconnecting to class {code}… The class store is not answering; you stay in the class and follow the "
              "teacher again as soon as it is back.",
        "zh": "正在重新连接课堂 {code}…… 课堂存储暂时没有响应；你仍在课堂中，连接恢复后会继续跟随老师。",
    },
    "classroom.reconnecting_teacher": {
        "en": "Reconnecting class {code}… The class store is not answering. Keep this tab open: it holds the class's "
              "step and answers and gives them back when the store is back.",
        "zh": "正在重新连接课堂 {code}…… 课堂存储暂时没有响应。请保持此标签页打开：它保存着课堂的步骤和答案，存储恢复后会交还给它。",
    },
    "classroom.err.offline": {
        "en": "Not connected to the class store; the app works on without a class.",
        "zh": "未连接到课堂存储；应用可以继续在没有课堂的情况下使用。",
    },
}
